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
TableClient table = service.getTableClient("Things");
table.setAccessPolicies(List.of(
    new TableSignedIdentifier("readers")
        .setAccessPolicy(new TableAccessPolicy().setStartsOn(OffsetDateTime.parse("2030-01-01T00:00:00Z")).setExpiresOn(OffsetDateTime.parse("2030-12-31T23:59:59Z")).setPermissions("raud")),
    new TableSignedIdentifier("query-only")
        .setAccessPolicy(new TableAccessPolicy().setPermissions("r")),
    new TableSignedIdentifier("revoked")));
