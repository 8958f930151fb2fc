// Prints each failed check the conformance suite saved under a results folder (its -o option):
// scenario folder, check id, message and details cut to 600 characters. The suite's own summary
// names a failed scenario only, not the check in it nor why; the scripts call this last on a
// failure, where a CI log's tail shows it.
// Usage: node print_failed_checks.js <results folder>
const fs = require("fs");
const path = require("path");

const root = process.argv[2];
if (!root || !fs.existsSync(root)) {
  console.log(`no results saved under ${root}`);
  process.exit(0);
}
for (const dir of fs.readdirSync(root)) {
  const file = path.join(root, dir, "checks.json");
  if (!fs.existsSync(file)) continue;
  for (const check of JSON.parse(fs.readFileSync(file, "utf8"))) {
    if (check.status !== "FAILURE") continue;
    const details = JSON.stringify(check.details ?? {}).slice(0, 600);
    console.log(`${dir}: ${check.id}: ${check.errorMessage ?? ""} ${details}`);
  }
}
