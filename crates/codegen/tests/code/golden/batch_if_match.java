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
TableClient table = service.getTableClient("Showcode");
table.submitTransaction(List.of(
    new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE, new TableEntity("Sales", "002")
        .addProperty("odata.etag", "W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"")
        .addProperty("N", 8), true),
    new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("Sales", "it's 100%")
        .addProperty("N", 9))));
