//! `tasklists import FILE [--format …] [--list NAME | --into LIST_ID]
//! [--dry-run]`: the host reads the file, refusing one larger than the
//! component takes before reading it whole (the bound is the component's:
//! `max-import-bytes`, 4 MiB), and hands the text over; the component
//! parses it, imports it in one transaction and words the result.

use super::args::ImportArgs;
use super::output::{Stream, print_lines, print_text};
use super::{Failure, Globals};
use std::fs::File;
use std::io::Read;
use std::path::Path;
use tasklists_host::ImportRequest;

/// Runs the import.
pub(crate) fn run(globals: &Globals, args: ImportArgs) -> Result<(), Failure> {
    let mut host = globals.open_host()?;
    let max = host.max_import_bytes()?;
    let text = match read_bounded(&args.file, max) {
        Ok(text) => text,
        Err(ReadError::TooLarge(size)) => {
            let lines = host.import_too_large(&args.file, size)?;
            print_lines(&lines, globals.color, Stream::Stderr);
            return Err(Failure::Tool);
        }
        Err(ReadError::Io(e)) => {
            return Err(Failure::Usage(format!("cannot read {}: {e}", args.file)));
        }
        Err(ReadError::NotText) => {
            return Err(Failure::Usage(format!("{} is not UTF-8 text", args.file)));
        }
    };
    let request = ImportRequest {
        text,
        file_name: if args.file == "-" {
            String::new()
        } else {
            args.file.clone()
        },
        format: args.format.map(Into::into),
        list_name: args.list,
        into: args.into,
        dry_run: args.dry_run,
        strict: args.strict,
        tag: args.tag,
        approve: args.approve,
    };
    let reply = host.import_text(&request, &globals.ctx)?;
    if reply.failed {
        if args.json {
            print_text(&reply.text);
        } else {
            print_lines(&reply.lines, globals.color, Stream::Stderr);
        }
        return Err(Failure::Tool);
    }
    if args.json {
        print_text(&reply.text);
    } else {
        print_lines(&reply.lines, globals.color, Stream::Stdout);
    }
    Ok(())
}

/// Why a file was not read.
enum ReadError {
    /// Larger than the bound: its size (as far as it was read).
    TooLarge(u64),
    /// Not UTF-8.
    NotText,
    /// The file system's error.
    Io(std::io::Error),
}

/// The text of `file` (`-`: stdin), refused past `max` bytes: by its
/// size before reading when the file system says it, else once more
/// than `max` bytes came (a pipe, a file that grew).
fn read_bounded(file: &str, max: u64) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    if file == "-" {
        std::io::stdin()
            .lock()
            .take(max + 1)
            .read_to_end(&mut bytes)
            .map_err(ReadError::Io)?;
    } else {
        let path = Path::new(file);
        let f = File::open(path).map_err(ReadError::Io)?;
        let size = f.metadata().map_err(ReadError::Io)?.len();
        if size > max {
            return Err(ReadError::TooLarge(size));
        }
        f.take(max + 1)
            .read_to_end(&mut bytes)
            .map_err(ReadError::Io)?;
    }
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotText)
}
