// A projection with select. Ask only for the properties you use: the service sends just those
// (with the keys you list and the ETag), which makes each page smaller and faster. Open the
// wire log to compare the response body with the entities' full size.
const products = tableClient("Products");
await products.createTable();
await products.submitTransaction(
  ["Hammer", "Saw", "Drill"].map((name, i) => [
    "upsert",
    { partitionKey: "Tools", rowKey: String(i + 1), Name: name, Price: 10 + i, Description: `${name}: `.padEnd(400, "…") },
    "Replace",
  ]),
);

for await (const product of products.listEntities({
  queryOptions: { filter: odata`PartitionKey eq ${"Tools"}`, select: ["Name", "Price"] },
})) {
  console.log(product.Name, product.Price, product.Description); // Description was not asked for
}
