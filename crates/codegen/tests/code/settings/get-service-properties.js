const properties = await serviceClient.getProperties();
console.log(properties);
