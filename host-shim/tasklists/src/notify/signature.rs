//! What proves a webhook's POST came from this notifier: an HMAC-SHA256 of
//! the exact body with the secret the person set, sent as
//! `X-Tasklists-Signature: sha256=<hex>` (the form GitHub's webhooks use,
//! which receivers already know how to check).

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// The header that carries the signature.
pub(crate) const HEADER: &str = "x-tasklists-signature";

/// `sha256=` and the lowercase hex HMAC-SHA256 of `body` keyed with
/// `secret`.
pub(crate) fn sign(secret: &[u8], body: &[u8]) -> String {
    // HMAC takes a key of any length (a long one is hashed first).
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(body);
    format!("sha256={}", hex(&mac.finalize().into_bytes()))
}

/// The lowercase hex SHA-256 of `text`: a name for a webhook's channel
/// that keeps its URL (which may hold a secret) out of the store.
pub(crate) fn digest_hex(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// Lowercase hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_rfc_4231s_hmac_sha256() {
        // RFC 4231, test case 2.
        assert_eq!(
            sign(b"Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_channel_name_is_the_urls_sha_256() {
        assert_eq!(
            digest_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
