// An employee and its index entity in one transaction (the guide's intra-partition
// secondary index). The same employee is stored twice in its department's partition: once
// under its id and once under its email. Both lookups are then point queries, and because
// the two entities share a PartitionKey, one transaction writes them together: both or
// neither.
const employees = tableClient("Employees");
await employees.createTable(); // does nothing if the table is there already

const ada = { EmployeeId: "000123", FirstName: "Ada", LastName: "Lovelace", Email: "ada@contoso.com" };
const result = await employees.submitTransaction([
  ["upsert", { partitionKey: "Sales", rowKey: `empid_${ada.EmployeeId}`, ...ada }, "Replace"],
  ["upsert", { partitionKey: "Sales", rowKey: `email_${ada.Email}`, ...ada }, "Replace"],
]);
console.log("transaction:", result.status);

// Found by email with a point query: PartitionKey and RowKey both given.
const byEmail = await employees.getEntity("Sales", `email_${ada.Email}`);
console.log(byEmail.rowKey, byEmail.FirstName, byEmail.LastName);
