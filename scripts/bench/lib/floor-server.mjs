// The "SDK floor" server (opt-in line, --floor): answers every request of the workload with
// precomputed bytes shaped like the service's, doing no storage work at all. What the SDK
// line measures against it is the client's own cost (the SDK, Node's HTTP, loopback), which
// bounds every server's ratio: no server can be faster than this through the SDK.
//
//   node floor-server.mjs PORT PARTITIONS PER_PARTITION

import http from "node:http";
import { entity } from "./workload.mjs";

const [port, partitions, perPartition] = process.argv.slice(2).map(Number);
const JSON_TYPE = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
const ETAG = `W/"datetime'2023-06-01T00%3A00%3A00.0000000Z'"`;
const TIMESTAMP = "2023-06-01T00:00:00.0000000Z";

/** Entity (p, i) as the service writes it in minimal metadata. */
function wire(p, i) {
  const e = entity(p, i);
  return {
    "odata.etag": ETAG,
    PartitionKey: e.partitionKey,
    RowKey: e.rowKey,
    Timestamp: TIMESTAMP,
    Name: e.Name,
    Bucket: e.Bucket,
    "Balance@odata.type": "Edm.Int64",
    Balance: e.Balance.toString(),
    "Score@odata.type": "Edm.Double",
    Score: e.Score.value,
    Active: e.Active,
    "Joined@odata.type": "Edm.DateTime",
    Joined: e.Joined.toISOString().replace("Z", "0000Z"),
  };
}

const page = (entities) =>
  Buffer.from(JSON.stringify({ "odata.metadata": "m", value: entities }));
const mid = Math.floor(partitions / 2);
const partitionPage = page(Array.from({ length: perPartition }, (_, i) => wire(mid, i)));
const scanPage = page(
  Array.from({ length: partitions * (perPartition / 100) }, (_, k) =>
    wire(Math.floor(k / (perPartition / 100)), 42 + 100 * (k % (perPartition / 100))),
  ),
);

function batchResponse(operations) {
  const parts = [];
  parts.push(
    "--batchresponse_f\r\n" +
      "Content-Type: multipart/mixed; boundary=changesetresponse_f\r\n\r\n",
  );
  for (let n = 0; n < operations; n++) {
    parts.push(
      "--changesetresponse_f\r\nContent-Type: application/http\r\n" +
        "Content-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 204 No Content\r\n" +
        "X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n" +
        "DataServiceVersion: 3.0;\r\n\r\n\r\n",
    );
  }
  parts.push("--changesetresponse_f--\r\n--batchresponse_f--\r\n");
  return Buffer.from(parts.join(""));
}

function send(res, status, headers, body) {
  res.writeHead(status, { "x-ms-version": "2019-02-02", ...headers });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const url = decodeURIComponent(req.url);
    if (req.method === "POST" && url.includes("/$batch")) {
      const operations = Buffer.concat(chunks).toString("latin1").split("\r\nPOST ").length - 1;
      const body = batchResponse(operations);
      send(res, 202, { "Content-Type": "multipart/mixed; boundary=batchresponse_f" }, body);
    } else if (req.method === "POST" && url.includes("/Tables")) {
      send(res, 204, { "Preference-Applied": "return-no-content" });
    } else if (req.method === "GET" && url.includes("RowKey='")) {
      const [, p, i] = /PartitionKey='p(\d+)',RowKey='r(\d+)'/.exec(url) ?? [];
      const body = Buffer.from(JSON.stringify({ "odata.metadata": "m", ...wire(+p, +i) }));
      send(res, 200, { "Content-Type": JSON_TYPE, ETag: ETAG }, body);
    } else if (req.method === "GET") {
      const body = url.includes("PartitionKey eq") ? partitionPage : scanPage;
      send(res, 200, { "Content-Type": JSON_TYPE }, body);
    } else {
      send(res, 501, {}, "");
    }
  });
});
server.listen(port, "127.0.0.1");
