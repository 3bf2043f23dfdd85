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
    new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("Sales", "003")
        .addProperty("N", 6)
        .addProperty("Id", UUID.fromString("00000000-0000-0000-0000-000000000001"))),
    new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, new TableEntity("Sales", "001")
        .addProperty("N", 7)),
    new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE, new TableEntity("Sales", "004")
        .addProperty("Big", -9223372036854775808L)),
    new TableTransactionAction(TableTransactionActionType.UPDATE_MERGE, new TableEntity("Sales", "002")
        .addProperty("M", true)),
    new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("Sales", "009"))));
