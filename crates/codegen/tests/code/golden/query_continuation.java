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
ListEntitiesOptions options = new ListEntitiesOptions()
    .setTop(2);
// One page, as one request returns it.
PagedResponse<TableEntity> page = table.listEntities(options, null, Context.NONE)
    .iterableByPage("1!16!TydCcmllbiAxMDAl;1!12!aXQncyA1MCU-").iterator().next();
for (TableEntity entity : page.getValue()) System.out.println(entity.getProperties());
System.out.println("ContinuationToken: " + page.getContinuationToken());
