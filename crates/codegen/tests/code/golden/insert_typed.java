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
table.createEntity(new TableEntity("O'Brien 100%", "100% sure, it's é")
    .addProperty("Name", "Say \"hi\"\nit's 100%")
    .addProperty("Age", 42)
    .addProperty("Big", 9007199254740993L)
    .addProperty("Small", -5L)
    .addProperty("Ratio", 0.25)
    .addProperty("Whole", 2.0)
    .addProperty("Nan", Double.NaN)
    .addProperty("Active", true)
    .addProperty("Joined", OffsetDateTime.parse("2024-02-29T23:59:58.1234567Z"))
    .addProperty("Seen", OffsetDateTime.parse("2024-01-02T03:04:05.678Z"))
    .addProperty("Id", UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833"))
    .addProperty("Blob", new byte[] { (byte) 0x00, (byte) 0x01, (byte) 0xFF, (byte) 0x22, (byte) 0x5C }));
