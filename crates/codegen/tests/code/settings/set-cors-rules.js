await serviceClient.setProperties({
  cors: [
    {
      allowedOrigins: "https://example.com,http://127.0.0.1:8080",
      allowedMethods: "GET,PUT,OPTIONS",
      allowedHeaders: "x-ms-meta-*,content-type",
      exposedHeaders: "x-ms-meta-*,content-type",
      maxAgeInSeconds: 3600,
    },
    {
      allowedOrigins: "*",
      allowedMethods: "GET",
      allowedHeaders: "",
      exposedHeaders: "",
      maxAgeInSeconds: 0,
    },
  ],
});
