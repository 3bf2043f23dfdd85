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
    .setFilter("PartitionKey eq 'O''Brien 100%' and N ge 2 or Big eq 1099511627780L")
    .setSelect(List.of("Name", "N"))
    .setTop(2);
// One page, as one request returns it.
PagedResponse<TableEntity> page = table.listEntities(options, null, Context.NONE)
    .iterableByPage().iterator().next();
for (TableEntity entity : page.getValue()) System.out.println(entity.getProperties());
System.out.println("ContinuationToken: " + page.getContinuationToken());
