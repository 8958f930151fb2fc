// everything-server: the official conformance suite's fixture.
//
//   everything-server                      serve on stdin/stdout (logs on stderr)
//   everything-server --http [--port N]    serve Streamable HTTP at http://localhost:N/mcp
//                                          (--port 0, the default, picks a free port and prints it)
//   everything-server --sign-key FILE      also serve a signed tool manifest (tools/manifest), signed
//                                          with the Ed25519 key in FILE (PKCS#8 PEM or 64 hex digits,
//                                          as `mcp-trust keygen` writes it)
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

#include "fixture.hpp"
#include "mcp/http/server.hpp"

namespace {

int usage(std::ostream& out, int code) {
  out << "usage: everything-server [--http [--port N] [--host ADDR]] [--sign-key FILE] [--profiles FILE]\n"
         "Serves the MCP conformance fixture (MCP 2025-11-25 and 2026-07-28) on stdin/stdout, or over Streamable HTTP\n"
         "at http://localhost:N/mcp with --http (--port 0 picks a free port; the URL is printed).\n"
         "With --sign-key, also answers tools/manifest with its tools signed by the Ed25519 key in FILE\n"
         "(PKCS#8 PEM or 64 hex digits) and advertises io.modelcontextprotocol/signed-manifests.\n"
         "With --profiles, implements the server profiles FILE lists (a JSON array of ProfileSpec, the default\n"
         "first) and serves them at /.well-known/mcp-profiles and in server/discover.\n";
  return code;
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
  bool http = false;
  mcp::http::HttpServerOptions hopts;
  std::string sign_key, profiles_file;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--help" || a == "-h") return usage(std::cout, 0);
    if (a == "--http") { http = true; continue; }
    if (a == "--sign-key" && i + 1 < argc) { sign_key = argv[++i]; continue; }
    if (a == "--profiles" && i + 1 < argc) { profiles_file = argv[++i]; continue; }
    if ((a == "--port" || a == "--host") && i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--host") { hopts.host = v; continue; }
      char* end = nullptr;
      long p = std::strtol(v.c_str(), &end, 10);
      if (*end || p < 0 || p > 65535) {
        std::cerr << "everything-server: --port needs a number from 0 to 65535, got '" << v << "'\n";
        return 2;
      }
      hopts.port = static_cast<unsigned short>(p);
      continue;
    }
    std::cerr << "everything-server: unknown argument '" << a << "'\n";
    return usage(std::cerr, 2);
  }

  mcp::ServerOptions opts;
  opts.info.name = "mcp-trust-everything-server";
  opts.info.version = "0.1.0";
  opts.instructions = "The MCP conformance fixture, served by mcp-trust.";
  auto server = std::make_shared<mcp::Server>(opts);
  everything::add_tools(*server);
  everything::add_resources(*server);
  everything::add_prompts(*server);
  everything::add_completion(*server);
  everything::add_stateless_fixtures(*server);
  if (!profiles_file.empty()) {
    // A JSON array of ProfileSpec (mcp/protocol/profiles.hpp), default first.
    auto profiles = mcp::read_profiles_file(profiles_file);
    auto set = profiles ? server->set_profiles(*profiles) : mcp::Result<void>(mcp::fail(profiles.error()));
    if (!set) {
      std::cerr << "everything-server: --profiles " << set.error().message << "\n";
      return 2;
    }
  }
  if (!sign_key.empty()) {
    auto key = read_secret_key(sign_key);
    if (!key) {
      std::cerr << "everything-server: --sign-key " << key.error().message << "\n";
      return 2;
    }
    auto r = server->set_manifest_signing(mcp::ManifestSigning{.key = std::move(*key), .issuer = opts.info.name});
    if (!r) {
      std::cerr << "everything-server: " << r.error().message << "\n";
      return 1;
    }
  }

  if (!http) {
    auto reason = server->serve_stdio();
    if (reason) {
      std::cerr << "everything-server: " << reason->message << "\n";
      return 1;
    }
    return 0;
  }

  mcp::http::HttpServer hs(server, hopts);
  auto served = hs.serve_until_signalled([&](unsigned short port) {
    std::cout << "listening on http://localhost:" << port << hopts.path << std::endl;
  });
  if (!served) {
    std::cerr << "everything-server: " << served.error().message << "\n";
    return 1;
  }
  return 0;
}
