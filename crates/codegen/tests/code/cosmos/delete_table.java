// AZURE_TABLES_CONNECTION_STRING holds the account's Cosmos DB for Table connection string:
// DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=<account-key>;TableEndpoint=https://contoso.table.cosmos.azure.com:443/;
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
service.deleteTable("Employees");
