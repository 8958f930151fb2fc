// tools/call through the gateway's proxy against the same upstream called directly, in the same run
// and alternating in rounds, for three upstreams: in-process (memory transports: the gateway's own
// cost alone), a stdio child (everything-server) and a Streamable HTTP one (everything-server
// --http). Pinning, a policy (one deny pattern), the audit log (SQLite in a state folder on disk)
// and metrics are all on. One more row, in-process-floor, is not through the gateway: its second
// column calls a tool of the same upstream whose handler does the gateway's per-call trust work,
// the most a gateway of any design, with that work on, could keep. One more, stdio-node, has the
// reference TypeScript server-everything as its stdio upstream (its echo tool): a server people
// run, whose own work per call is far more than our C++ one's. Four more, stdio-relay-floor,
// http-relay-floor and their -same-links variants, are not through the gateway either: their
// second column is the relay floor (relay_floor.hpp), the least any relay with the trust work on
// could spend over those links, so the gap between a row and its floor is what the gateway's two
// sessions and proxy cost. Prints p50/p99 of each path and the added p50, then throughput with 4
// concurrent callers (alternating in rounds as well), then the memory of 1,000 idle client
// sessions on the proxy's server.
//
//   bench_gateway [--iterations N] [--bin DIR] [--state DIR] [--only NAME] [--profile COLUMN] [--callers K]
//                 [--argument-bytes B] [--peak] [--node DIR]
//     N: calls per path per round (default 5000); DIR: where everything-server is (default: this
//     program's folder); --state: the state folder (default: a new folder under the current one,
//     so on disk, not tmpfs); --only: one row (in-process, in-process-threaded, in-process-inline,
//     in-process-floor, stdio, stdio-relay-floor, stdio-relay-floor-same-links, stdio-same-links,
//     stdio-node, http, http-relay-floor, http-relay-floor-same-links, http-same-links);
//     --profile gateway|direct: only that column's throughput loop of each row, N calls, with
//     the CPU each call took, and nothing else (a run to attach a profiler to); --callers: the
//     concurrent callers of the throughput loops (default 4); --argument-bytes: every call sends
//     {"text": B bytes} (default: no arguments), which the tools ignore; --peak: then, for each row
//     (and the floor), the throughput of both paths with 4, 8, 16 and 32 callers and the share
//     of their peaks (report_peak); --node: the folder whose node_modules holds
//     @modelcontextprotocol/server-everything (default: the project's .deps/node, found from this
//     program's folder; without it the stdio-node row is left out, saying so).
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "gateway/call_record.hpp"
#include "gateway/policy.hpp"
#include "gateway/proxy.hpp"
#include "gateway/state.hpp"
#include "relay_floor.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "mcp/stdio/child_process.hpp"
#include "mcp/transport/direct.hpp"
#include "mcp/transport/memory.hpp"

namespace {

using namespace mcp;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

struct Stats {
  double p50, p99;
};

Stats stats(std::vector<double> us) {
  std::sort(us.begin(), us.end());
  return {us[us.size() / 2], us[std::min(us.size() - 1, us.size() * 99 / 100)]};
}

// User and system CPU of every thread of this process so far.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

long rss_kib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

[[noreturn]] void die(const std::string& what) {
  std::cerr << "bench_gateway: " << what << "\n";
  std::exit(1);
}

std::shared_ptr<Client> connected(std::shared_ptr<Transport> t) {
  auto c = std::make_shared<Client>();
  if (auto init = c->connect(std::move(t)); !init) die("connect: " + init.error().message);
  return c;
}

json::object g_arguments;  // --argument-bytes: what every call sends

std::vector<double> time_calls(Client& c, const std::string& tool, int n, const json::object& arguments) {
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto t0 = Clock::now();
    auto r = c.call_tool(tool, arguments);
    if (!r) die("call: " + r.error().message);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  return us;
}

int g_callers = 4;  // --callers

double throughput(Client& c, const std::string& tool, int n, const json::object& arguments, int concurrent = g_callers) {
  const auto t0 = Clock::now();
  std::vector<std::jthread> callers;
  for (int k = 0; k < concurrent; ++k) {
    callers.emplace_back([&] {
      for (int i = 0; i < n / concurrent; ++i)
        if (!c.call_tool(tool, arguments)) die("concurrent call failed");
    });
  }
  callers.clear();
  return (n / concurrent * concurrent) / std::chrono::duration<double>(Clock::now() - t0).count();
}

// One upstream two ways: `direct` a client of it, `through` a client of the proxy in front of it.
struct Pair {
  std::string name;
  std::string tool;
  std::shared_ptr<Client> direct;
  std::shared_ptr<Client> through;
  std::shared_ptr<gateway::Proxy> proxy;
  std::string through_tool = tool;  // the floor row calls another tool of the same server
  json::object arguments = g_arguments;  // what every call of this row sends
};

Pair make_pair(const std::string& name, const std::string& tool, std::shared_ptr<Client> direct,
               std::shared_ptr<Client> upstream_of_proxy, const gateway::State& state, const std::string& state_dir,
               bool inline_client = false) {
  gateway::ProxyOptions po;
  po.name = name;
  po.state_dir = state_dir;
  po.policy.deny = {"*delete*"};
  po.metrics = std::make_shared<gateway::Metrics>();
  auto proxy = gateway::Proxy::start(std::move(upstream_of_proxy), state.pins, state.audit, po);
  if (!proxy) die("proxy: " + proxy.error().message);
  auto [a, b] = inline_client ? make_direct_transport_pair() : make_memory_transport_pair();
  if (!(*proxy)->server()->connect(a)) die("proxy session");
  return Pair{name, tool, std::move(direct), connected(b), *proxy};
}

void report(const Pair& p, int iterations) {
  std::vector<double> d, g;
  for (int round = 0; round < 4; ++round) {  // alternating, so both paths see the same machine
    auto dd = time_calls(*p.direct, p.tool, iterations / 4, p.arguments);
    auto gg = time_calls(*p.through, p.through_tool, iterations / 4, p.arguments);
    d.insert(d.end(), dd.begin(), dd.end());
    g.insert(g.end(), gg.begin(), gg.end());
  }
  const Stats sd = stats(d), sg = stats(g);
  // Throughput alternates in rounds too: on a shared machine one long run per path would compare
  // two different minutes. Each path's rate is over all its rounds; the rounds' own ratios show
  // the spread.
  double d_calls = 0, d_seconds = 0, g_calls = 0, g_seconds = 0, low = 1e9, high = 0;
  for (int round = 0; round < 4; ++round) {
    const double rd = throughput(*p.direct, p.tool, iterations / 4, p.arguments),
                 rg = throughput(*p.through, p.through_tool, iterations / 4, p.arguments);
    const double calls = iterations / 4 / g_callers * g_callers;
    d_calls += calls;
    d_seconds += calls / rd;
    g_calls += calls;
    g_seconds += calls / rg;
    low = std::min(low, rg / rd);
    high = std::max(high, rg / rd);
  }
  const double td = d_calls / d_seconds, tg = g_calls / g_seconds;
  std::printf("%-28s direct p50 %7.1f us p99 %7.1f | gateway p50 %7.1f us p99 %7.1f | added p50 %6.1f us | "
              "%d callers: direct %7.0f/s gateway %7.0f/s (%.0f%%; rounds %.0f-%.0f%%)\n",
              p.name.c_str(), sd.p50, sd.p99, sg.p50, sg.p99, sg.p50 - sd.p50, g_callers, td, tg, 100.0 * tg / td,
              100.0 * low, 100.0 * high);
}

// --peak: each path's most calls per second over a range of concurrent callers, alternating in
// rounds as above. With few callers a path is partly bound by its latency (each caller waits for
// its answer); the peak is what it can carry, and the share of peaks what the gateway keeps of
// what the upstream could take.
void report_peak(const Pair& p, int iterations) {
  constexpr int kCallers[] = {4, 8, 16, 32};
  double best_d = 0, best_g = 0;
  int at_d = 0, at_g = 0;
  std::printf("%-28s peak:", p.name.c_str());
  for (int k : kCallers) {
    double d_seconds = 0, g_seconds = 0;
    const double calls = iterations / 4 / k * k;
    for (int round = 0; round < 4; ++round) {
      d_seconds += calls / throughput(*p.direct, p.tool, iterations / 4, p.arguments, k);
      g_seconds += calls / throughput(*p.through, p.through_tool, iterations / 4, p.arguments, k);
    }
    const double d = 4 * calls / d_seconds, g = 4 * calls / g_seconds;
    std::printf(" %d callers %.0f/%.0f (%.0f%%);", k, d, g, 100.0 * g / d);
    if (d > best_d) best_d = d, at_d = k;
    if (g > best_g) best_g = g, at_g = k;
  }
  std::printf(" peaks: direct %.0f/s (%d callers), gateway %.0f/s (%d callers): %.0f%%\n", best_d, at_d, best_g, at_g,
              100.0 * best_g / best_d);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  int iterations = 5000;
  std::string only;
  std::string profile;
  std::string bin = fs::path(argv[0]).parent_path().string();
  // build/bin -> the project's root -> .deps/node (scripts/setup.sh installs the reference servers there).
  std::string node_dir = (fs::absolute(fs::path(argv[0])).parent_path() / ".." / ".." / ".deps" / "node").lexically_normal().string();
  std::string state_dir = (fs::current_path() / ("bench-gateway-state-" + std::to_string(::getpid()))).string();
  bool peak = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--peak") {
      peak = true;
      continue;
    }
    if (i + 1 >= argc) die(a + " needs a value");
    const char* v = argv[++i];
    if (a == "--iterations") iterations = std::max(40, std::atoi(v));
    else if (a == "--bin") bin = v;
    else if (a == "--node") node_dir = v;
    else if (a == "--state") state_dir = v;
    else if (a == "--only") only = v;
    else if (a == "--profile") profile = v;
    else if (a == "--callers") g_callers = std::max(1, std::atoi(v));
    else if (a == "--argument-bytes") g_arguments = json::object{{"text", std::string(std::max(0, std::atoi(v)), 'a')}};
    else die("unknown argument " + a);
  }
  // Each of the four throughput rounds gives every caller at least one call.
  iterations = std::max(iterations, 4 * g_callers);
  auto state = gateway::open_state(state_dir);
  if (!state) die(state.error().message);
  // As a serving gateway does: call records through the journal (call_journal.hpp).
  if (auto j = state->audit->start_journal(); !j) die(j.error().message);

  // In process: an upstream Server with one non-blocking tool.
  auto upstream = std::make_shared<Server>();
  Tool echo;
  echo.name = "echo";
  echo.input_schema = json::object{{"type", "object"}};
  upstream->add_tool(echo, [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("ok")); },
                     ToolOptions{.non_blocking = true});
  // The floor: what a gateway with no session of its own could at best keep. The upstream's own
  // handler does the proxy's per-call trust work (policy, pin state, arguments' digest, the call
  // record journaled, metrics), so a client calling it pays that work and nothing else of a
  // gateway's: not its sessions, nor reading and forwarding the frames.
  const std::string floor_server = "floor";
  gateway::ItemPolicy floor_policy;
  floor_policy.deny = {"*delete*"};
  auto floor_metrics = std::make_shared<gateway::Metrics>();
  Tool audited = echo;
  audited.name = "echo_audited";
  if (!state->pins->observe(floor_server, ListKind::tools, audited.name, to_json(audited).as_object(), gateway::NewItems::allow))
    die("pin the floor's tool");
  upstream->add_tool(
      audited,
      [&](const json::object& args, RequestContext& ctx) -> Result<CallToolResult> {
        const auto start = Clock::now();
        if (auto denied = gateway::policy_refusal(floor_policy, floor_server, Target{ListKind::tools, "echo"}))
          return fail(std::move(*denied));
        if (!state->pins->state(floor_server, ListKind::tools, "echo_audited")) return fail(Error::internal("pin state"));
        const std::string digest = gateway::arguments_digest(trust::canonicalize(json::value(args)));
        auto r = Result<CallToolResult>(CallToolResult::text("ok"));
        const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
        floor_metrics->observe(floor_server, "tools/call", "ok", elapsed);
        auto text = gateway::call_record_text(gateway::CallRecord{.server = floor_server,
                                                                  .method = "tools/call",
                                                                  .item = "echo",
                                                                  .arguments = digest,
                                                                  .client = ctx.session_id(),
                                                                  .latency_us = elapsed.count(),
                                                                  .outcome = "ok"});
        if (!text || !state->audit->append_call_canonical(*text)) return fail(Error::internal("record"));
        return r;
      },
      ToolOptions{.non_blocking = true});
  auto in_process = [&](bool inline_link) {
    auto [a, b] = inline_link ? make_direct_transport_pair() : make_memory_transport_pair();
    if (!upstream->connect(a)) die("upstream session");
    return connected(b);
  };
  // A child's stdio link, not yet connected (the relay floor takes it as it is), and a client of it.
  auto spawn_link = [&](std::string program, std::vector<std::string> args) -> std::shared_ptr<Transport> {
    ChildProcessOptions cp;
    cp.program = std::move(program);
    cp.args = std::move(args);
    auto t = ChildProcessTransport::spawn(cp);
    if (!t) die(t.error().message);
    return *t;
  };
  auto spawned = [&](std::string program, std::vector<std::string> args) {
    return connected(spawn_link(std::move(program), std::move(args)));
  };
  auto child = [&](std::vector<std::string> args) { return spawned(bin + "/everything-server", std::move(args)); };
  std::vector<Pair> pairs;
  // Only the rows asked for are set up (--only): each stdio row has two children, stdio-node two
  // Node processes, and a profile of one row should not hold the others' start-up.
  auto wanted = [&](std::string_view name) { return only.empty() || only == name; };
  // The client of either path reaches its server through a memory transport (a delivery thread per
  // end, as a socket's reader would be). The proxy reaches the in-process upstream inline (the
  // direct transport: what an embedding would use, so the difference is the gateway's own work),
  // or, in the second row, through a memory transport too (two more thread hand-offs per call).
  if (wanted("in-process")) pairs.push_back(make_pair("in-process", "echo", in_process(false), in_process(true), *state, state_dir));
  if (wanted("in-process-threaded"))
    pairs.push_back(make_pair("in-process-threaded", "echo", in_process(false), in_process(false), *state, state_dir));
  // Every link inline, the clients' too: no thread hand-off on either path, so both columns are
  // the work alone (what a call costs in CPU, and what the gateway adds to it).
  if (wanted("in-process-inline"))
    pairs.push_back(make_pair("in-process-inline", "echo", in_process(true), in_process(true), *state, state_dir, true));
  if (wanted("in-process-floor")) {
    // Not through the gateway: the same upstream, its audited tool (above). No proxy of its own.
    pairs.push_back(Pair{.name = "in-process-floor", .tool = "echo", .direct = in_process(false), .through = in_process(false),
                         .proxy = nullptr, .through_tool = "echo_audited"});
  }
  if (wanted("stdio")) pairs.push_back(make_pair("stdio", "test_simple_text", child({}), child({}), *state, state_dir));
  // The same stdio upstream with the same threaded links on both paths: the gateway's client
  // reaches it inline, so the difference is the gateway's own work over a stdio upstream, as the
  // in-process row measures it over an in-process one. The row above adds a threaded link to the
  // gateway path only (as a client in another thread or process would have).
  if (wanted("stdio-same-links"))
    pairs.push_back(make_pair("stdio-same-links", "test_simple_text", child({}), child({}), *state, state_dir, true));
  // Not through the gateway: an upstream behind the relay floor (relay_floor.hpp), with the links
  // of the row named before "-relay-floor": what a relay around both sessions could at best keep,
  // with the trust work on.
  const std::string relay_server = "relay";
  {
    Tool relayed;
    relayed.name = "test_simple_text";
    if (!state->pins->observe(relay_server, ListKind::tools, relayed.name, to_json(relayed).as_object(), gateway::NewItems::allow))
      die("pin the relayed tool");
  }
  auto relay_floor_pair = [&](std::string name, std::shared_ptr<Client> direct, std::shared_ptr<Transport> upstream_link,
                              bool inline_client) {
    auto [a, b] = inline_client ? make_direct_transport_pair() : make_memory_transport_pair();
    bench::start_relay_floor(a, std::move(upstream_link),
                             bench::RelayFloorTrust{.server = relay_server,
                                                    .policy = {.deny = {"*delete*"}},
                                                    .pins = state->pins,
                                                    .audit = state->audit,
                                                    .metrics = std::make_shared<gateway::Metrics>()});
    return Pair{.name = std::move(name), .tool = "test_simple_text", .direct = std::move(direct), .through = connected(b)};
  };
  for (const bool same_links : {false, true}) {
    const std::string name = same_links ? "stdio-relay-floor-same-links" : "stdio-relay-floor";
    if (wanted(name)) pairs.push_back(relay_floor_pair(name, child({}), spawn_link(bin + "/everything-server", {}), same_links));
  }
  // The reference server-everything (TypeScript SDK 1.x, on Node) over stdio, with the same links
  // as stdio-same-links: what the gateway keeps in front of a server people run.
  const fs::path everything_js = fs::path(node_dir) / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js";
  if (wanted("stdio-node") && fs::exists(everything_js)) {
    auto node_child = [&] { return spawned("node", {everything_js.string(), "stdio"}); };
    auto p = make_pair("stdio-node", "echo", node_child(), node_child(), *state, state_dir, true);
    p.arguments = json::object{{"message", "hi"}};
    pairs.push_back(std::move(p));
  } else if (wanted("stdio-node")) {
    std::fprintf(stderr, "bench_gateway: no %s (scripts/setup.sh installs it; or --node DIR): the stdio-node row is left out\n",
                 everything_js.string().c_str());
  }

  // HTTP: one everything-server --http; the direct client and the proxy's each have a session.
  pid_t http_pid = -1;
  std::string url;
  if (wanted("http") || wanted("http-same-links") || wanted("http-relay-floor") || wanted("http-relay-floor-same-links")) {
    int out[2];
    if (pipe(out) != 0) die("pipe");
    http_pid = fork();
    if (http_pid == 0) {
      // Gone with this program however it ends: it holds this program's stderr, and a test (or
      // anyone reading the output) would wait for that to close.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      dup2(out[1], 1);
      const std::string program = bin + "/everything-server";
      execl(program.c_str(), program.c_str(), "--http", "--port", "0", nullptr);
      _exit(127);
    }
    close(out[1]);
    std::string line;
    for (char ch; read(out[0], &ch, 1) == 1 && ch != '\n';) line += ch;
    if (line.rfind("listening on ", 0) != 0) die("everything-server --http did not start: " + line);
    url = line.substr(13);
  }
  auto http_link = [&] {
    auto t = http::HttpClientTransport::create({.url = url});
    if (!t) die(t.error().message);
    return std::shared_ptr<Transport>(*t);
  };
  auto http_client = [&] { return connected(http_link()); };
  if (wanted("http")) pairs.push_back(make_pair("http", "test_simple_text", http_client(), http_client(), *state, state_dir));
  if (wanted("http-same-links"))
    pairs.push_back(make_pair("http-same-links", "test_simple_text", http_client(), http_client(), *state, state_dir, true));
  for (const bool same_links : {false, true}) {
    const std::string name = same_links ? "http-relay-floor-same-links" : "http-relay-floor";
    if (wanted(name)) pairs.push_back(relay_floor_pair(name, http_client(), http_link(), same_links));
  }
  if (pairs.empty()) die("no row named " + only);

  if (!profile.empty()) {
    for (const auto& p : pairs) {
      const double c0 = cpu_seconds();
      const double rate = profile == "direct" ? throughput(*p.direct, p.tool, iterations, p.arguments)
                                              : throughput(*p.through, p.through_tool, iterations, p.arguments);
      std::printf("%s %s: %.0f calls/s, %.1f us of CPU per call (every thread)\n", p.name.c_str(), profile.c_str(), rate,
                  (cpu_seconds() - c0) * 1e6 / iterations);
    }
    std::fflush(stdout);
    if (http_pid > 0) kill(http_pid, SIGKILL);
    std::error_code ignored;
    fs::remove_all(state_dir, ignored);  // under the running gateway: nothing reads it again
    std::_Exit(0);  // no teardown in the samples
  }
  std::printf("tools/call, %d calls per path (pinning, policy, audit on disk, metrics on)\n", iterations);
  for (const auto& p : pairs) report(p, iterations);
  if (peak) {
    for (const auto& p : pairs) report_peak(p, iterations);
  }

  // Memory of idle client sessions on a proxy's server (what the gateway keeps per client), on a
  // proxy of its own in front of the in-process upstream.
  auto idle_pair = make_pair("idle", "echo", in_process(false), in_process(true), *state, state_dir);
  const long before = rss_kib();
  std::vector<std::shared_ptr<Client>> idle;
  for (int i = 0; i < 1000; ++i) {
    auto [a, b] = make_memory_transport_pair();
    if (!idle_pair.proxy->server()->connect(a)) die("idle session");
    idle.push_back(connected(b));
  }
  const long after = rss_kib();
  std::printf("1,000 idle client sessions (server and client sides, in process): %+ld KiB RSS, %.1f KiB each\n",
              after - before, static_cast<double>(after - before) / 1000.0);
  for (auto& c : idle) c->close();
  pairs.push_back(std::move(idle_pair));
  for (auto& p : pairs) {
    p.through->close();
    p.direct->close();
  }
  if (http_pid > 0) {
    kill(http_pid, SIGTERM);
    waitpid(http_pid, nullptr, 0);
  }
  fs::remove_all(state_dir);
  return 0;
}
