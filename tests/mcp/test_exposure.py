"""`tasklists serve` where others can reach it: over TLS with
`--tls-cert/--tls-key` (a certificate made here by a test CA), and on every
address once the database holds named tokens (the server then answers only
for `--allow-host` names, and only to a token)."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
import subprocess
from pathlib import Path

import httpx2
import pytest
from conftest import call, server_binary
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from httpserver import HEADERS, INIT, Server, add_token, env, http_client, token_command


def create_request(name: str) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "task_lists", "arguments": {"action": "create", "params": {"name": name}}},
    }


def write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    """A private key file only its owner may read (`serve` refuses others)."""
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    path.chmod(0o600)


def certificate(tmp: Path) -> tuple[Path, Path, ssl.SSLContext]:
    """A test CA and a server certificate it signed for localhost and
    127.0.0.1: the chain and key files `serve` takes, and a client context
    trusting that CA only."""
    now = datetime.datetime.now(datetime.timezone.utc)
    day = datetime.timedelta(days=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tasklists test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - day)
        .not_valid_after(now + day)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - day)
        .not_valid_after(now + day)
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    chain, key_file, ca_file = tmp / "chain.pem", tmp / "key.pem", tmp / "ca.pem"
    chain.write_bytes(leaf.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM))
    write_key(key_file, key)
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    return chain, key_file, ssl.create_default_context(cafile=str(ca_file))


def serve_fails(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`serve ARGS…` expected to stop before it serves anything."""
    done = subprocess.run(
        [str(server_binary()), "--db", str(db), "serve", "--listen", "127.0.0.1:0", *args],
        env=env(), capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0 and done.stdout == "", "no URL printed, nothing served"
    return done


@pytest.mark.anyio
async def test_over_tls_agents_work_as_their_tokens_and_nothing_travels_in_clear(db, tmp_path):
    chain, key, trusted = certificate(tmp_path)
    server = Server(db, "--tls-cert", str(chain), "--tls-key", str(key))
    try:
        assert server.url.startswith("https://127.0.0.1:"), server.url
        async with http_client(server.mcp, server.token("ann-bot"), verify=trusted) as ann:
            created = (await call(ann, "task_lists", "create", name="Over TLS"))["list"]
            assert created["created_by_agent_id"] == "ann-bot"
            await call(ann, "task_items", "create", list_id=created["id"], title="ship it")
            task = (await call(ann, "task_claims", "claim_next", list_id=created["id"]))["task"]
            assert task["title"] == "ship it" and task["claimed_by_agent_id"] == "ann-bot"
        token = server.token("ann-bot")
        auth = HEADERS | {"Authorization": f"Bearer {token}"}
        # A client that does not trust the certificate never sends its request.
        with pytest.raises(httpx2.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            httpx2.post(server.mcp, json=INIT, headers=auth, timeout=10)
        # Plain HTTP to the TLS port gets no HTTP answer at all.
        plain = server.mcp.replace("https://", "http://")
        with pytest.raises(httpx2.TransportError):
            httpx2.post(plain, json=INIT, headers=auth, timeout=10)
        # The board's sign-in cookie is never sent back over plain HTTP.
        signed_in = httpx2.get(f"{server.url}?token={server.owner_token}", verify=trusted, timeout=10)
        assert signed_in.status_code == 303
        cookie = signed_in.headers["set-cookie"]
        assert "; Secure" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie, cookie
        # A session of this host only, and never the token itself.
        assert cookie.startswith(f"__Host-tasklists-{server.port}=") and "Path=/" in cookie, cookie
        assert server.owner_token not in cookie
        board = httpx2.get(server.url, headers={"Authorization": f"Bearer {server.owner_token}"}, verify=trusted)
        assert board.status_code == 200 and "Over TLS" in board.text
    finally:
        server.stop()


def test_a_certificate_that_cannot_serve_stops_it_with_the_reason(db, tmp_path):
    chain, key, _ = certificate(tmp_path)
    other = tmp_path / "other-key.pem"
    write_key(other, ec.generate_private_key(ec.SECP256R1()))
    mismatched = serve_fails(db, "--tls-cert", str(chain), "--tls-key", str(other))
    assert "the certificate and key cannot serve TLS" in mismatched.stderr, mismatched.stderr
    missing = serve_fails(db, "--tls-cert", str(tmp_path / "none.pem"), "--tls-key", str(key))
    assert "cannot read the certificate" in missing.stderr and "none.pem" in missing.stderr, missing.stderr
    swapped = serve_fails(db, "--tls-cert", str(key), "--tls-key", str(chain))
    assert "cannot read the" in swapped.stderr, swapped.stderr
    alone = serve_fails(db, "--tls-cert", str(chain))
    assert "--tls-key" in alone.stderr, alone.stderr


def test_beyond_loopback_only_stored_tokens_open_it_and_only_for_its_names(db):
    alone = subprocess.run(
        [str(server_binary()), "--db", str(db), "serve", "--listen", "0.0.0.0:0", "--allow-host", "tasks.example"],
        env=env(), capture_output=True, text=True, timeout=60,
    )
    assert alone.returncode == 2 and alone.stdout == ""
    assert "tasklists token add" in alone.stderr, alone.stderr
    token = add_token(db, "ci-runner")
    server = Server(db, "--allow-host", "tasks.example", listen="0.0.0.0:0")
    try:
        named = {"Host": f"tasks.example:{server.port}"}
        auth = HEADERS | named | {"Authorization": f"Bearer {token}"}
        assert httpx2.post(server.mcp, json=INIT, headers=auth, timeout=10).status_code == 200
        answer = httpx2.post(server.mcp, json=create_request("From a runner"), headers=auth, timeout=30).json()
        assert answer["result"]["isError"] is False, answer
        assert answer["result"]["structuredContent"]["list"]["created_by_agent_id"] == "ci-runner"
        # Without a token, with another's, or under a name it does not answer for: refused.
        assert httpx2.post(server.mcp, json=INIT, headers=HEADERS | named, timeout=10).status_code == 401
        assert httpx2.get(server.url, headers=named, timeout=10).status_code == 401
        loopback_name = auth | {"Host": f"127.0.0.1:{server.port}"}
        assert httpx2.post(server.mcp, json=INIT, headers=loopback_name, timeout=10).status_code == 421
        assert token_command(db, "revoke", "ci-runner").returncode == 0
        assert httpx2.post(server.mcp, json=INIT, headers=auth, timeout=10).status_code == 401
    finally:
        server.stop()
