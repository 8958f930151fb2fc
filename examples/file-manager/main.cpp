// file-manager: SEP-2091's File Manager example, served over stdio (logs on stderr).
//
//   file-manager                           serve; admin_delete appears after request_admin
//   file-manager --grant-admin-after 2s    also grant admin to everyone after 2 seconds
//   file-manager --misbehave[=KIND]        break the signature after the first tools/list; KIND is
//                                          rename (default), annotation, description or undeclared
//   file-manager --sign-key FILE           also serve a signed tool manifest (tools/manifest) signed
//                                          with the Ed25519 key in FILE (as `mcp-trust keygen` writes it)
//   file-manager --root DIR                serve the directory DIR, read-only, as resources (SEP-2093):
//                                          file:/// is DIR, directories listable, files subscribable
//   file-manager --http [--port N]         serve Streamable HTTP at http://localhost:N/mcp instead, with
//                                          the server card (signature) at /.well-known/mcp.json; the card's
//                                          signature is signed with the --sign-key key when given
//
// Try it with the command line client:
//   mcp-trust client --mode strict -- file-manager --grant-admin-after 1s watch --for 3s
//   mcp-trust client --mode strict -- file-manager --misbehave watch --for 3s      (exit 4)
//   mcp-trust client --manifest-key key.pub -- file-manager --sign-key key watch --for 3s
//   mcp-trust client -- file-manager --root . tree file:/// --depth 2
//   file-manager --http --port 8080 &  mcp-trust card http://localhost:8080/mcp
//                                      mcp-trust client --url http://localhost:8080/mcp tools
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

#include "file_manager.hpp"
#include "mcp/http/server.hpp"
#include "mcp/http/server_card.hpp"

namespace {

// "2s", "500ms", "1m" -> milliseconds.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view s) {
  std::size_t i = 0;
  long long n = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && n < 100'000'000) n = n * 10 + (s[i++] - '0');
  if (i == 0) return std::nullopt;
  const std::string_view unit = s.substr(i);
  if (unit == "ms") return std::chrono::milliseconds(n);
  if (unit == "s" || unit.empty()) return std::chrono::milliseconds(n * 1000);
  if (unit == "m") return std::chrono::milliseconds(n * 60'000);
  return std::nullopt;
}

int usage_error(std::string_view message) {
  std::cerr << "file-manager: " << message << " (try --help)\n";
  return 2;
}

// The secret key in `path`; the text read is wiped once parsed.
mcp::Result<mcp::trust::Ed25519SecretKey> read_secret_key(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return mcp::fail(mcp::Error::invalid_params("cannot read " + path));
  std::ostringstream text;
  text << in.rdbuf();
  std::string s = std::move(text).str();
  auto key = mcp::trust::Ed25519SecretKey::parse(s);
  mcp::trust::secure_wipe(s);
  if (!key) return mcp::fail(mcp::Error::invalid_params(path + ": " + key.error().message));
  return key;
}

}  // namespace

int main(int argc, char** argv) {
  file_manager::Options options;
  std::string sign_key;
  std::string profiles_file;  // --profiles: a JSON array of ProfileSpec
  bool http = false;
  unsigned short port = 0;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << "usage: file-manager [--grant-admin-after DURATION] [--misbehave[=KIND]] [--sign-key FILE]\n"
                   "                    [--http [--port N]] [--profiles FILE] [--root DIR]\n"
                   "Serves SEP-2091's File Manager example on stdin/stdout (MCP 2025-11-25), with a capability\n"
                   "signature declaring manage_files (two annotation variants), read_file, write_file,\n"
                   "admin_delete (listed once admin is granted) and request_admin.\n"
                   "  --grant-admin-after DURATION  grant admin to everyone after DURATION (500ms, 2s, 1m)\n"
                   "  --misbehave[=KIND]            break the signature after the first tools/list:\n"
                   "                                rename (default), annotation, description, undeclared, schema\n"
                   "  --sign-key FILE               also serve tools/manifest, signed with the Ed25519 key in\n"
                   "                                FILE (PKCS#8 PEM or 64 hex digits)\n"
                   "  --profiles FILE               implement the server profiles FILE lists (a JSON array of\n"
                   "                                ProfileSpec, default first): /.well-known/mcp-profiles, discover\n"
                   "  --root DIR                    serve DIR read-only as resources instead of the in-memory\n"
                   "                                files: file:/// is DIR, directories listable (resources/list\n"
                   "                                with their uri), files subscribable; nothing outside DIR\n"
                   "  --http [--port N]             serve Streamable HTTP at http://localhost:N/mcp (0: any free\n"
                   "                                port, printed) with the server card at /.well-known/mcp.json\n";
      return 0;
    }
    if (a == "--grant-admin-after") {
      if (i + 1 >= argc) return usage_error("--grant-admin-after needs a duration");
      options.grant_admin_after = parse_duration(argv[++i]);
      if (!options.grant_admin_after) return usage_error("--grant-admin-after: not a duration: " + std::string(argv[i]));
    } else if (a == "--sign-key") {
      if (i + 1 >= argc) return usage_error("--sign-key needs a file");
      sign_key = argv[++i];
    } else if (a == "--profiles") {
      if (i + 1 >= argc) return usage_error("--profiles needs a file");
      profiles_file = argv[++i];
    } else if (a == "--root") {
      if (i + 1 >= argc) return usage_error("--root needs a directory");
      options.root = std::filesystem::path(argv[++i]);
    } else if (a == "--http") {
      http = true;
    } else if (a == "--port") {
      if (i + 1 >= argc) return usage_error("--port needs a number");
      char* end = nullptr;
      long p = std::strtol(argv[++i], &end, 10);
      if (*end || p < 0 || p > 65535) return usage_error("--port: not a port number: " + std::string(argv[i]));
      port = static_cast<unsigned short>(p);
    } else if (a == "--misbehave") {
      options.misbehave = file_manager::Misbehaviour::rename;
    } else if (a.starts_with("--misbehave=")) {
      auto m = file_manager::parse_misbehaviour(a.substr(12));
      if (!m) return usage_error("--misbehave: unknown kind '" + std::string(a.substr(12)) + "'");
      options.misbehave = *m;
    } else {
      return usage_error("unknown argument '" + std::string(a) + "'");
    }
  }

  mcp::ServerOptions opts;
  opts.info.name = "file-manager";
  opts.info.title = "File Manager";
  opts.info.description = "Manage files with read/write/delete operations";
  opts.info.version = "0.1.0";
  options.in_server_card = http;
  auto server_ptr = std::make_shared<mcp::Server>(opts);
  mcp::Server& server = *server_ptr;
  file_manager::FileManager fm(options);
  if (auto r = fm.install(server); !r) {
    std::cerr << "file-manager: " << r.error().message << "\n";
    return 1;
  }
  if (!profiles_file.empty()) {
    auto profiles = mcp::read_profiles_file(profiles_file);
    auto set = profiles ? server.set_profiles(*profiles) : mcp::Result<void>(mcp::fail(profiles.error()));
    if (!set) return usage_error("--profiles " + set.error().message);
  }
  std::shared_ptr<const mcp::trust::Ed25519SecretKey> card_key;
  if (!sign_key.empty() && http) {
    auto key = read_secret_key(sign_key);
    if (!key) return usage_error("--sign-key " + key.error().message);
    card_key = std::make_shared<const mcp::trust::Ed25519SecretKey>(std::move(*key));
  }
  if (!sign_key.empty()) {
    auto key = read_secret_key(sign_key);
    if (!key) return usage_error("--sign-key " + key.error().message);
    if (auto r = server.set_manifest_signing(mcp::ManifestSigning{.key = std::move(*key), .issuer = opts.info.name}); !r) {
      std::cerr << "file-manager: " << r.error().message << "\n";
      return 1;
    }
  }
  if (http) {
    mcp::http::HttpServerOptions ho;
    ho.port = port;
    ho.routes[std::string(mcp::kServerCardPath)] = mcp::http::server_card_route(server_ptr, {.key = card_key});
    mcp::http::HttpServer hs(server_ptr, ho);
    auto served = hs.serve_until_signalled(
        [](unsigned short p) { std::cout << "listening on http://localhost:" << p << "/mcp" << std::endl; });
    if (!served) {
      std::cerr << "file-manager: " << served.error().message << "\n";
      return 1;
    }
    return 0;
  }
  auto reason = server.serve_stdio();
  if (reason) {
    std::cerr << "file-manager: " << reason->message << "\n";
    return 1;
  }
  return 0;
}
