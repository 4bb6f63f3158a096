// The plain static host a user could pick instead: sirv over the same public/, with its own ETags.
import http from "node:http";
import sirv from "sirv";

const [dir, port] = process.argv.slice(2);
const serve = sirv(dir, { etag: true, dev: false });
http
  .createServer((req, res) => serve(req, res, () => res.writeHead(404).end()))
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
