await serviceClient.setProperties({
  logging: {
    version: "1.0",
    read: false,
    write: true,
    delete: true,
    retentionPolicy: { enabled: true, days: 30 },
  },
  hourMetrics: {
    version: "1.0",
    enabled: true,
    includeAPIs: false,
    retentionPolicy: { enabled: true, days: 7 },
  },
  minuteMetrics: {
    version: "1.0",
    enabled: false,
    retentionPolicy: { enabled: false },
  },
  cors: [],
});
