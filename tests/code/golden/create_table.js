await serviceClient.createTable("Showcode");
