// Signed tool manifests on the server: configuring the signer, and the tools/manifest method, which
// signs exactly what this session's tools/list shows (mcp/server/manifest_signing.hpp).
#include "mcp/protocol/methods.hpp"
#include "server/manifest_signer.hpp"
#include "server/server_session.hpp"

namespace mcp {

Result<void> Server::set_manifest_signing(ManifestSigning signing) {
  auto signer = ManifestSigner::create(std::move(signing));
  if (!signer) return fail(signer.error());
  std::lock_guard lock(impl_->mu);
  impl_->manifest_signer = std::move(*signer);
  return {};
}

Result<json::value> ServerSessionImpl::tools_manifest(ServerRequest& r) {
  std::shared_ptr<ManifestSigner> signer;
  {
    std::lock_guard lock(server_->mu);
    signer = server_->manifest_signer;
  }
  // Without a key the method does not exist, as for a server that never heard of the extension.
  if (!signer) return fail(Error::method_not_found(method::kToolsManifest));
  // Through the same stages as tools/list: the manifest covers exactly what the list shows.
  return signer->manifest_for(listed_tools(r));
}

}  // namespace mcp
