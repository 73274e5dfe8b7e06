//! TLS for a PostgreSQL connection, with libpq's `sslmode` meanings, on
//! rustls with the ring provider (aws-lc-rs would need cmake and nasm to
//! build).
//!
//! | sslmode | TLS | certificate checked |
//! | --- | --- | --- |
//! | `disable` | never | — |
//! | `allow`, `prefer` | if the server offers it | no |
//! | `require` | always | chain, only with a root certificate (`sslrootcert`, or `~/.postgresql/root.crt`) |
//! | `verify-ca` | always | chain |
//! | `verify-full` | always | chain and host name |
//!
//! The roots are `sslrootcert` (a PEM file, or `system` for the system's
//! store), else `~/.postgresql/root.crt` when it exists, else the system's
//! store.

use super::config::SslMode;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{WebPkiServerVerifier, verify_server_cert_signed_by_trust_anchor};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_postgres_rustls::MakeRustlsConnect;

/// How the server's certificate is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Check {
    /// Not at all: the mode asks for encryption only.
    Nothing,
    /// The chain up to a trusted root, not the host name.
    Chain,
    /// The chain and the host name.
    Full,
}

/// What `mode` checks, given whether a root certificate was named.
pub(super) fn check_for(mode: SslMode, roots_given: bool) -> Check {
    match mode {
        SslMode::Disable | SslMode::Allow | SslMode::Prefer => Check::Nothing,
        // libpq: "if a root CA file exists, require behaves like verify-ca".
        SslMode::Require if roots_given || default_root_file().is_some() => Check::Chain,
        SslMode::Require => Check::Nothing,
        SslMode::VerifyCa => Check::Chain,
        SslMode::VerifyFull => Check::Full,
    }
}

/// The connector for a connection string's `sslmode` and `sslrootcert`.
/// (Also built for `disable`: the driver then never uses it.)
pub(super) fn connector(
    mode: SslMode,
    root_cert: Option<&str>,
) -> Result<MakeRustlsConnect, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS setup: {e}"))?;
    let config = match check_for(mode, root_cert.is_some()) {
        Check::Nothing => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(EncryptOnly(provider)))
            .with_no_client_auth(),
        Check::Chain => {
            let roots = Arc::new(roots(root_cert)?);
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(ChainOnly { roots, provider }))
                .with_no_client_auth()
        }
        Check::Full => {
            let roots = Arc::new(roots(root_cert)?);
            let verifier = WebPkiServerVerifier::builder_with_provider(roots, provider)
                .build()
                .map_err(|e| format!("TLS setup: {e}"))?;
            builder.with_webpki_verifier(verifier).with_no_client_auth()
        }
    };
    Ok(MakeRustlsConnect::new(config))
}

/// libpq's default root file, `~/.postgresql/root.crt`, if it exists.
fn default_root_file() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    Some(Path::new(&home).join(".postgresql/root.crt")).filter(|p| p.is_file())
}

/// The trusted roots: `sslrootcert`, else the default file, else the
/// system's store.
fn roots(root_cert: Option<&str>) -> Result<RootCertStore, String> {
    let file = match root_cert {
        Some("system") => None,
        Some(path) => Some(PathBuf::from(path)),
        None => default_root_file(),
    };
    let mut roots = RootCertStore::empty();
    match file {
        Some(path) => {
            let certs = CertificateDer::pem_file_iter(&path)
                .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                .map_err(|e| {
                    format!("cannot read the root certificates {}: {e}", path.display())
                })?;
            let (added, _ignored) = roots.add_parsable_certificates(certs);
            if added == 0 {
                return Err(format!(
                    "{} holds no usable root certificate (PEM, `-----BEGIN CERTIFICATE-----`)",
                    path.display()
                ));
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _ignored) = roots.add_parsable_certificates(found.certs);
            if added == 0 {
                return Err(
                    "no system root certificates were found to check the server's \
                     certificate with: name a CA file with sslrootcert=/path/to/ca.pem"
                        .to_string(),
                );
            }
        }
    }
    Ok(roots)
}

/// `prefer` and `require` without roots: the session is encrypted but the
/// server is not authenticated, exactly as libpq does in those modes (they
/// protect against passive eavesdropping only). The handshake signature
/// is still verified, so the server holds the key of the certificate it
/// shows, and SCRAM channel binding (which the driver uses when the server
/// offers it) ties the password exchange to that certificate.
#[derive(Debug)]
struct EncryptOnly(Arc<CryptoProvider>);

impl ServerCertVerifier for EncryptOnly {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// `verify-ca`: the certificate must chain to a trusted root, but may name
/// any host. For servers reached by an address their certificate does not
/// list (an IP, a tunnel, a load balancer), when a private CA issues
/// certificates only to the database servers anyway.
#[derive(Debug)]
struct ChainOnly {
    roots: Arc<RootCertStore>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let cert = ParsedCertificate::try_from(end_entity)?;
        verify_server_cert_signed_by_trust_anchor(
            &cert,
            &self.roots,
            intermediates,
            now,
            self.provider.signature_verification_algorithms.all,
        )?;
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.provider.signature_verification_algorithms;
        verify_tls12_signature(message, cert, dss, algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.provider.signature_verification_algorithms;
        verify_tls13_signature(message, cert, dss, algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_check_what_libpq_checks() {
        assert_eq!(check_for(SslMode::Prefer, true), Check::Nothing);
        assert_eq!(check_for(SslMode::Require, true), Check::Chain);
        assert_eq!(check_for(SslMode::VerifyCa, false), Check::Chain);
        assert_eq!(check_for(SslMode::VerifyFull, false), Check::Full);
    }

    #[test]
    fn a_missing_or_empty_root_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.pem");
        let e = connector(SslMode::VerifyFull, missing.to_str())
            .err()
            .unwrap();
        assert!(e.contains("nope.pem"), "{e}");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let e = connector(SslMode::VerifyCa, empty.to_str()).err().unwrap();
        assert!(e.contains("no usable root certificate"), "{e}");
        assert!(connector(SslMode::Disable, None).is_ok());
    }
}
