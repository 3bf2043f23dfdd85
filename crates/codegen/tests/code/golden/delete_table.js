await serviceClient.deleteTable("Showcode");
