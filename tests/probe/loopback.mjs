// Preloaded (`node --import`) into servers the tests start, so that one which
// listens on a bare port (server-everything's `app.listen(PORT)`) listens on
// the loopback interface only.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || typeof args[0] === "string") {
    const [port, ...rest] = args;
    const host = typeof rest[0] === "string" ? rest.shift() : "127.0.0.1";
    return listen.call(this, port, host, ...rest);
  }
  return listen.apply(this, args);
};
