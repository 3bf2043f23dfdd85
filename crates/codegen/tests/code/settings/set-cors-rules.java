import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.Context;
import com.azure.data.tables.*;
import com.azure.data.tables.models.*;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

TableServiceClient service = new TableServiceClientBuilder()
    .connectionString(System.getenv("AZURE_TABLES_CONNECTION_STRING"))
    .buildClient();
TableServiceProperties properties = new TableServiceProperties()
    .setCorsRules(List.of(
        new TableServiceCorsRule()
            .setAllowedOrigins("https://example.com,http://127.0.0.1:8080")
            .setAllowedMethods("GET,PUT,OPTIONS")
            .setAllowedHeaders("x-ms-meta-*,content-type")
            .setExposedHeaders("x-ms-meta-*,content-type")
            .setMaxAgeInSeconds(3600),
        new TableServiceCorsRule()
            .setAllowedOrigins("*")
            .setAllowedMethods("GET")
            .setAllowedHeaders("")
            .setExposedHeaders("")
            .setMaxAgeInSeconds(0)));
service.setProperties(properties);
