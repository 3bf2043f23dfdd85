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
    .setLogging(new TableServiceLogging()
        .setAnalyticsVersion("1.0")
        .setReadLogged(false)
        .setWriteLogged(true)
        .setDeleteLogged(true)
        .setRetentionPolicy(new TableServiceRetentionPolicy().setEnabled(true).setDaysToRetain(30)))
    .setHourMetrics(new TableServiceMetrics()
        .setVersion("1.0")
        .setEnabled(true)
        .setIncludeApis(false)
        .setRetentionPolicy(new TableServiceRetentionPolicy().setEnabled(true).setDaysToRetain(7)))
    .setMinuteMetrics(new TableServiceMetrics()
        .setVersion("1.0")
        .setEnabled(false)
        .setRetentionPolicy(new TableServiceRetentionPolicy().setEnabled(false)))
    .setCorsRules(List.of());
service.setProperties(properties);
