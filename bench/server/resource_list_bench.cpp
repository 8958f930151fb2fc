// resources/list scoped to a directory (SEP-2093) on a 100,000-file directory, served by
// file-manager's RootDirectory (examples/file-manager/root_dir.hpp) through a Server and our Client
// in process over the memory transport: the whole request, decoding, the chain, the page, its JSON.
//
//   Readdir/floor     one readdir pass over the directory, nothing else: the least any page costs,
//                     since each page is one stateless pass keeping only its page_size entries
//   ScopedList/first  the first page (500 children, each stat()ed, as JSON); /10000: 20 times
//                     larger pages, for what paging saves
//   ScopedList/all    every page, following nextCursor to the end (200 pages)
// Memory: each benchmark reports the process's peak RSS (maxrss_MiB) after it ran; run one per
// process (--benchmark_filter) to compare them (bench/RESULTS.md has the commands).
// The directory is made once under $TMPDIR (or /tmp) and removed at exit; MCP_BENCH_FILES changes
// the count.
#include <benchmark/benchmark.h>
#include <dirent.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"
#include "root_resources.hpp"

namespace {

namespace fs = std::filesystem;

double maxrss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

// The directory of N small files, made on first use.
struct BigDir {
  fs::path path;
  std::size_t files = 100'000;
  BigDir() {
    if (const char* n = std::getenv("MCP_BENCH_FILES")) files = std::strtoul(n, nullptr, 10);
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp ? tmp : "/tmp") + "/mcp-bench-dir-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
    std::cerr << "resource_list_bench: making " << files << " files in " << path << "\n";
    for (std::size_t i = 0; i < files; ++i) {
      std::ofstream(path / ("file-" + std::to_string(i) + ".txt")) << i << "\n";
      if ((i + 1) % 25'000 == 0) std::cerr << "  " << (i + 1) << " files\n";
    }
  }
  ~BigDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

BigDir& big_dir() {
  static BigDir d;
  return d;
}

struct Served {
  std::shared_ptr<mcp::Server> server = std::make_shared<mcp::Server>();
  std::shared_ptr<void> root;
  std::unique_ptr<mcp::Client> client;
  std::shared_ptr<mcp::ServerSession> session;
  explicit Served(std::size_t page_size = 500) {
    auto served = file_manager::serve_root(*server, big_dir().path, {.page_size = page_size});
    if (!served) throw std::runtime_error(served.error().message);
    root = *served;
    mcp::ClientOptions co;
    co.protocol_version = "2025-11-25";
    co.session.request_timeout = std::chrono::seconds(60);
    client = std::make_unique<mcp::Client>(co);
    auto [a, b] = mcp::make_memory_transport_pair();
    session = *server->connect(a);
    if (!client->connect(b)) throw std::runtime_error("connect failed");
  }
  ~Served() {
    client.reset();
    session->close();
  }
};

void Readdir_floor(benchmark::State& state) {
  const auto& dir = big_dir().path;
  std::size_t n = 0;
  for (auto _ : state) {
    DIR* d = opendir(dir.c_str());
    n = 0;
    while (readdir(d) != nullptr) ++n;
    closedir(d);
    benchmark::DoNotOptimize(n);
  }
  state.counters["entries"] = static_cast<double>(n);
  state.counters["maxrss_MiB"] = maxrss_mib();
}

void ScopedList_first(benchmark::State& state) {
  big_dir();
  Served s(static_cast<std::size_t>(state.range(0)));
  std::size_t n = 0;
  for (auto _ : state) {
    auto page = s.client->list_children("file:///");
    if (!page) {
      state.SkipWithError(page.error().message.c_str());
      return;
    }
    n = page->resources.size();
  }
  state.counters["items"] = static_cast<double>(n);
  state.counters["maxrss_MiB"] = maxrss_mib();
}

void ScopedList_all(benchmark::State& state) {
  big_dir();
  Served s;
  std::size_t items = 0, pages = 0;
  for (auto _ : state) {
    items = pages = 0;
    std::optional<std::string> cursor;
    do {
      auto page = s.client->list_children("file:///", cursor);
      if (!page) {
        state.SkipWithError(page.error().message.c_str());
        return;
      }
      items += page->resources.size();
      ++pages;
      cursor = page->next_cursor;
    } while (cursor);
  }
  state.counters["items"] = static_cast<double>(items);
  state.counters["pages"] = static_cast<double>(pages);
  state.counters["maxrss_MiB"] = maxrss_mib();
}

BENCHMARK(Readdir_floor)->Unit(benchmark::kMillisecond);
// The page size: 500 (the default) and 10,000 (the whole 100,000 in one answer is over the
// client's 4 MiB message limit, max_message_bytes: refused, which is why a directory is paged).
BENCHMARK(ScopedList_first)->Arg(500)->Arg(10'000)->Unit(benchmark::kMillisecond);
BENCHMARK(ScopedList_all)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
