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
// One page, as one request returns it.
PagedResponse<TableItem> page = service.listTables(new ListTablesOptions().setFilter("TableName ge 'Showcode' and TableName lt 'T'").setTop(2), null, Context.NONE)
    .iterableByPage().iterator().next();
for (TableItem table : page.getValue()) System.out.println(table.getName());
System.out.println("ContinuationToken: " + page.getContinuationToken());
