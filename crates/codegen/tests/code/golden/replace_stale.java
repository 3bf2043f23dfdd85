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
table.updateEntityWithResponse(new TableEntity("Sales", "002")
    .addProperty("odata.etag", "W/\"datetime'2001-01-01T00%3A00%3A00Z'\"")
    .addProperty("N", 0), TableEntityUpdateMode.REPLACE, true, null, Context.NONE);
