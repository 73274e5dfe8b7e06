//! The compile cache loads only what this user compiled: a cached module is
//! native code mapped into the process, so it is loaded only from a
//! directory the user owns and nobody else can write, and only from a
//! regular file the user owns. Otherwise the component is compiled in
//! memory and one line on stderr says why. Checked through the real binary:
//! `/proc/<pid>/maps` of a running MCP server shows which file it mapped.
#![cfg(target_os = "linux")]

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn tasklists(cache: &Path, cwd: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tasklists"));
    command
        .current_dir(cwd)
        .arg("--db")
        .arg(cwd.join("tasks.db"))
        .args(["--agent-id", "cache-test", "--color", "never"])
        .env_remove("TASKLISTS_DB")
        .env_remove("TASKLISTS_AGENT_ID")
        .env("TASKLISTS_CACHE_DIR", cache);
    command
}

/// `tasklists call task_help {"action":"workflow"}`, which must work
/// whatever the cache holds.
fn help(cache: &Path, cwd: &Path) -> Output {
    let out = tasklists(cache, cwd)
        .args(["call", "task_help", r#"{"action":"workflow"}"#])
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("claim_next"));
    out
}

/// What a running MCP server (after one call) has mapped from `.cwasm`
/// files, and what it wrote to stdout and stderr.
struct Served {
    mapped: Vec<String>,
    stdout: String,
    stderr: String,
}

fn serve(cache: &Path, cwd: &Path) -> Served {
    let mut child = tasklists(cache, cwd)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"t","version":"0"}}}}}}
{{"jsonrpc":"2.0","method":"notifications/initialized"}}
{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"task_help","arguments":{{"action":"workflow"}}}}}}"#
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut stdout = String::new();
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    while !stdout.contains(r#""id":1"#) {
        let mut line = String::new();
        assert!(
            lines.read_line(&mut line).unwrap() > 0,
            "no answer: {stdout}"
        );
        stdout.push_str(&line);
    }
    let maps = fs::read_to_string(format!("/proc/{}/maps", child.id())).unwrap();
    let mut mapped: Vec<String> = maps
        .lines()
        .filter(|l| l.contains(".cwasm"))
        .map(|l| l.split_whitespace().last().unwrap_or_default().to_string())
        .collect();
    // One file is mapped in several pieces (code, data).
    mapped.dedup();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    Served {
        mapped,
        stdout,
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

/// The one compiled module in `dir`.
fn cached(dir: &Path) -> PathBuf {
    let files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().unwrap()
}

/// The server's lines about the cache on stderr (beside its own log).
fn cache_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("compile cache"))
        .collect()
}

/// The refusal: one line on stderr naming the directory or file and why.
fn says_once_why(served: &Served, what: &Path, why: &str) {
    let lines = cache_lines(&served.stderr);
    assert_eq!(lines.len(), 1, "{:?}", served.stderr);
    assert!(
        lines[0].contains(&what.display().to_string()) && lines[0].contains(why),
        "{lines:?}"
    );
    assert!(
        !served.stdout.contains("compile cache"),
        "{}",
        served.stdout
    );
}

#[test]
fn the_cache_is_private_and_loaded_from_there() {
    let tmp = tempfile::tempdir().unwrap();
    // A relative directory is taken from the working directory at start.
    let out = help(Path::new("own/cache"), tmp.path());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let own = tmp.path().join("own/cache");
    let file = cached(&own);
    assert_eq!(mode(&own), 0o700, "only the user may enter the cache");
    assert_eq!(mode(&file), 0o600, "only the user may read the module");
    let served = serve(&own, tmp.path());
    assert_eq!(served.mapped, [file.display().to_string()]);
    assert_eq!(cache_lines(&served.stderr), Vec::<&str>::new());
}

#[test]
fn a_module_in_a_directory_others_can_write_is_not_loaded() {
    let tmp = tempfile::tempdir().unwrap();
    let own = tmp.path().join("own");
    help(&own, tmp.path());
    let module = cached(&own);
    // A directory the group may write: anyone in it could have put a valid
    // module there (here it is a copy of one this build made).
    let shared = tmp.path().join("shared");
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o775)).unwrap();
    let planted = shared.join(module.file_name().unwrap());
    fs::copy(&module, &planted).unwrap();
    let served = serve(&shared, tmp.path());
    assert_eq!(served.mapped, Vec::<String>::new(), "compiled in memory");
    says_once_why(&served, &shared, "writable by others");
    // Neither loaded nor replaced, and the CLI says it as well.
    assert_eq!(fs::read(&planted).unwrap(), fs::read(&module).unwrap());
    let out = help(&shared, tmp.path());
    assert_eq!(cache_lines(&String::from_utf8_lossy(&out.stderr)).len(), 1);
}

#[test]
fn a_module_others_can_write_or_a_link_is_not_loaded() {
    let tmp = tempfile::tempdir().unwrap();
    let own = tmp.path().join("own");
    help(&own, tmp.path());
    let module = cached(&own);
    let elsewhere = tmp.path().join("elsewhere.cwasm");
    fs::copy(&module, &elsewhere).unwrap();

    // A link in the user's own cache, to a file it did not write there.
    fs::remove_file(&module).unwrap();
    symlink(&elsewhere, &module).unwrap();
    let served = serve(&own, tmp.path());
    assert_eq!(served.mapped, Vec::<String>::new(), "compiled in memory");
    says_once_why(&served, &module, "not a regular file");
    // Replaced by the module it compiled (the directory is the user's).
    assert!(fs::symlink_metadata(&module).unwrap().is_file());

    // A module the group may write.
    fs::set_permissions(&module, fs::Permissions::from_mode(0o660)).unwrap();
    let served = serve(&own, tmp.path());
    assert_eq!(served.mapped, Vec::<String>::new(), "compiled in memory");
    says_once_why(&served, &module, "writable by others");
    assert_eq!(mode(&module), 0o600);
    // The replacement is loaded from then on.
    let served = serve(&own, tmp.path());
    assert_eq!(served.mapped, [module.display().to_string()]);
}
