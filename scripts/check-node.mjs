// Runs before `npm start`: the dependencies (the `ai` packages) declare Node >= 22. The service itself runs on Bun
// (installed from npm), and npm, the setup script and this check run on Node, so an older Node still works today;
// we say so clearly rather than refuse (see docs/_notes-operations.md).
const REQUIRED = 22;
const major = Number(process.versions.node.split(".")[0]);
if (major < REQUIRED) {
  console.warn(
    `[start] WARNING: Node ${process.version} is older than Node ${REQUIRED}, which the dependencies require ` +
      `(package.json "engines"). The service runs on Bun and starts anyway, but npm may warn (EBADENGINE) and a ` +
      `future release will refuse. Install Node ${REQUIRED} or later.`,
  );
}
