//! TLS for `tasklists serve --tls-cert FILE --tls-key FILE`: rustls (the
//! ring provider, as the PostgreSQL client uses), the certificate chain
//! and key read from PEM files once at the start.

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;

/// Why the certificate or key cannot be used; the server does not start.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A PEM file cannot be read or holds nothing usable.
    #[error("cannot read the {what} {path}: {reason}")]
    Read {
        /// `certificate` or `private key`.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// rustls refused the pair (a key that is not the certificate's).
    #[error("the certificate and key cannot serve TLS: {0}")]
    Config(String),
    /// Other users may read the private key: anyone on the machine could
    /// pose as the server.
    #[error(
        "the private key {path} can be read by other users (mode {mode:o}): run `chmod 600 {path}`"
    )]
    Exposed {
        /// The key file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
}

/// An acceptor for the chain in `cert` and the key in `key` (PEM); a key
/// others may read is refused, as a token file is.
pub fn acceptor(cert: &Path, key: &Path) -> Result<TlsAcceptor, TlsError> {
    let read = |what, path: &Path, reason: String| TlsError::Read {
        what,
        path: path.to_path_buf(),
        reason,
    };
    let chain = CertificateDer::pem_file_iter(cert)
        .map_err(|e| read("certificate", cert, e.to_string()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| read("certificate", cert, e.to_string()))?;
    if chain.is_empty() {
        return Err(read("certificate", cert, "no CERTIFICATE block".into()));
    }
    let key_der =
        PrivateKeyDer::from_pem_file(key).map_err(|e| read("private key", key, e.to_string()))?;
    // A key, then one only its owner may read.
    match super::access::others_may_read(key) {
        Ok(None) => {}
        Ok(Some(mode)) => {
            return Err(TlsError::Exposed {
                path: key.to_path_buf(),
                mode,
            });
        }
        Err(e) => return Err(read("private key", key, e.to_string())),
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, key_der)
        .map_err(|e| TlsError::Config(e.to_string()))?;
    let mut config = config;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
