//! The stdio transport: newline-delimited JSON-RPC on stdin/stdout.
//!
//! rmcp's own stdio transport drops what it cannot parse without a word,
//! so a client whose request holds a lone UTF-16 surrogate (what
//! `JSON.stringify` makes of a string cut mid-emoji), nests too deep or
//! runs over the size limit waits for an answer that never comes. This one
//! answers every such line (see `decode.rs`), ignores stray notifications
//! and responses sent before the session starts (rmcp would stop on them),
//! answers every request before it reports the end of stdin, and stops
//! reading once stdout is gone instead of serving into the void.

use super::decode::{
    Decoded, INVALID_REQUEST, LifecycleGate, decode, refuse, top_level_id, trailing_id,
};
use super::order::AnswerOrder;
use super::pending::Pending;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tasklists_host::DEFAULT_CALL_TIMEOUT;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, mpsc, watch};

/// The longest message accepted, rmcp's own limit: well above the 4 MiB
/// params limit, so an oversized request still gets the contract's own
/// `invalid_params` answer first.
const MAX_LINE_BYTES: usize = DEFAULT_MAX_LINE_LENGTH;

/// How much of each end of an oversized line is kept to find its id.
const END_BYTES: usize = 4096;

/// How long, once stdin has closed, the server waits for an answer before
/// it gives up on the rest: longer than any call may run.
const DRAIN_IDLE: Duration = DEFAULT_CALL_TIMEOUT.saturating_add(Duration::from_secs(5));

/// The server side of the connection, handed to rmcp.
pub(super) struct StdioTransport {
    /// Decoded messages, in the order they arrived.
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    out: LineWriter,
    pending: Pending,
    order: AnswerOrder,
}

/// Whether stdout still works, readable after the session ended.
pub(super) struct OutputHealth(watch::Receiver<bool>);

impl OutputHealth {
    /// True once a write to stdout failed (the client stopped reading).
    pub(super) fn is_broken(&self) -> bool {
        *self.0.borrow()
    }
}

impl StdioTransport {
    /// Starts reading `input` on a task of the current runtime; answers go
    /// to `output`, one line each. `pending` counts what is held for the
    /// client (and bounds it); `order` learns which requests are answered.
    pub(super) fn spawn(
        input: impl AsyncRead + Send + Unpin + 'static,
        output: impl AsyncWrite + Send + 'static,
        pending: Pending,
        order: AnswerOrder,
    ) -> (StdioTransport, OutputHealth) {
        let out = LineWriter::new(output);
        let health = OutputHealth(out.broken.subscribe());
        let (sender, incoming) = mpsc::channel(64);
        let reader = Reader {
            messages: sender,
            out: out.clone(),
            pending: pending.clone(),
        };
        tokio::spawn(reader.run(BufReader::new(input)));
        let transport = StdioTransport {
            incoming,
            out,
            pending,
            order,
        };
        (transport, health)
    }
}

impl Transport<RoleServer> for StdioTransport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let out = self.out.clone();
        let pending = self.pending.clone();
        // Serialized now and the message dropped: while the answer waits
        // for stdout (a client that does not read makes it wait) only its
        // bytes are held, and counted, given back however the write ends.
        let answers = Pending::answers(&item);
        if let Some(id) = &answers {
            // Writes start in the order of these calls: the next call's
            // answer may go now.
            self.order.answered(id);
        }
        let line = serde_json::to_vec(&item);
        drop(item);
        let queued = line.as_ref().ok().map(|line| pending.queue(line.len()));
        async move {
            out.write_line(line?).await?;
            drop(queued);
            if let Some(id) = answers {
                pending.answered(&id);
            }
            Ok(())
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        let mut broken = self.out.broken.subscribe();
        tokio::select! {
            message = self.incoming.recv() => message,
            // Nobody reads the answers any more: stop taking requests.
            _ = broken.wait_for(|broken| *broken) => None,
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.incoming.close();
        self.out.flush().await
    }
}

/// Writes whole lines to stdout, one writer at a time, so an answer from
/// rmcp and a refusal from the reader never interleave.
#[derive(Clone)]
struct LineWriter {
    inner: Arc<Mutex<Pin<Box<dyn AsyncWrite + Send>>>>,
    broken: Arc<watch::Sender<bool>>,
}

impl LineWriter {
    fn new(output: impl AsyncWrite + Send + 'static) -> Self {
        LineWriter {
            inner: Arc::new(Mutex::new(Box::pin(output))),
            broken: Arc::new(watch::Sender::new(false)),
        }
    }

    async fn write_line(&self, mut line: Vec<u8>) -> io::Result<()> {
        line.push(b'\n');
        let mut out = self.inner.lock().await;
        let written = match out.write_all(&line).await {
            Ok(()) => out.flush().await,
            Err(e) => Err(e),
        };
        if let Err(e) = &written
            && !self.broken.send_replace(true)
        {
            tracing::error!("cannot write to stdout ({e}); stopping");
        }
        written
    }

    async fn flush(&self) -> io::Result<()> {
        self.inner.lock().await.flush().await
    }
}

/// The task that reads stdin.
struct Reader {
    messages: mpsc::Sender<ClientJsonRpcMessage>,
    out: LineWriter,
    pending: Pending,
}

impl Reader {
    /// Reads stdin line by line until it closes, passing messages on in
    /// order and answering the lines that are not messages; then waits for
    /// the answers still owed before telling rmcp the input has ended.
    async fn run<R: AsyncBufRead + Unpin>(self, mut input: R) {
        let mut gate = LifecycleGate::default();
        let mut line = Vec::new();
        loop {
            // Backpressure: while too much is held for the client, stdin
            // is left unread (the client's writes block, not our memory).
            self.pending.room_to_read().await;
            line.clear();
            let refusal = match read_line(&mut input, &mut line).await {
                Ok(LineRead::Eof) => break,
                Err(e) => {
                    tracing::error!("cannot read stdin ({e}); stopping");
                    break;
                }
                Ok(LineRead::TooLong { bytes, tail }) => Some(refuse(
                    top_level_id(&line).or_else(|| trailing_id(&tail)),
                    INVALID_REQUEST,
                    format!(
                        "the message is {} MiB, over the limit of {} MiB; split the work into smaller calls",
                        bytes.div_ceil(1024 * 1024),
                        MAX_LINE_BYTES / (1024 * 1024)
                    ),
                )),
                Ok(LineRead::Line) => match decode(&line) {
                    Decoded::Message(message) => {
                        if gate.admits(&message) {
                            self.pending.incoming(&message, line.len());
                            if self.messages.send(*message).await.is_err() {
                                return; // the session is over
                            }
                        }
                        None
                    }
                    Decoded::Skip => None,
                    Decoded::Refuse(refusal) => Some(refusal),
                },
            };
            if let Some(refusal) = refusal
                && self.out.write_line(refusal).await.is_err()
            {
                return;
            }
        }
        let mut broken = self.out.broken.subscribe();
        tokio::select! {
            left = self.pending.drained(DRAIN_IDLE) => if left > 0 {
                tracing::warn!("stdin closed; {left} requests still unanswered after {DRAIN_IDLE:?} without progress");
            },
            _ = broken.wait_for(|broken| *broken) => {}
        }
        // Dropping `messages` now ends the session.
    }
}

/// What reading one line gave.
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// A line (without its limit exceeded) is in the buffer.
    Line,
    /// The line was over [`MAX_LINE_BYTES`]; the buffer holds its head,
    /// `tail` its last bytes.
    TooLong { bytes: usize, tail: Vec<u8> },
    /// stdin is closed.
    Eof,
}

/// Reads one `\n`-terminated line into `buf`, never buffering more than
/// [`MAX_LINE_BYTES`] of it.
async fn read_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    buf: &mut Vec<u8>,
) -> io::Result<LineRead> {
    let read = (&mut *input)
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', buf)
        .await?;
    if read == 0 {
        return Ok(LineRead::Eof);
    }
    if buf.len() <= MAX_LINE_BYTES || (buf.len() == MAX_LINE_BYTES + 1 && buf.ends_with(b"\n")) {
        return Ok(LineRead::Line);
    }
    // Over the limit: keep both ends (where ids are), skip to the newline.
    let mut bytes = buf.len();
    let mut tail = buf.split_off(buf.len() - END_BYTES);
    buf.truncate(END_BYTES);
    let mut chunk = Vec::new();
    loop {
        chunk.clear();
        let read = (&mut *input)
            .take(64 * 1024)
            .read_until(b'\n', &mut chunk)
            .await?;
        bytes += read;
        tail.extend_from_slice(&chunk);
        tail.drain(..tail.len().saturating_sub(END_BYTES));
        if read == 0 || chunk.ends_with(b"\n") {
            return Ok(LineRead::TooLong { bytes, tail });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[tokio::test]
    async fn oversized_lines_are_skipped_whole_keeping_both_ends() {
        let mut input = Vec::new();
        input.extend_from_slice(br#"{"jsonrpc":"2.0","method":"tools/call","params":""#);
        input.resize(MAX_LINE_BYTES + 100, b'x');
        input.extend_from_slice(b"\"},\"id\":9}\n{\"next\":1}\n");
        let mut reader = BufReader::new(input.as_slice());
        let mut buf = Vec::new();
        let LineRead::TooLong { bytes, tail } = read_line(&mut reader, &mut buf).await.unwrap()
        else {
            panic!("expected an oversized line");
        };
        assert_eq!(bytes, MAX_LINE_BYTES + 111);
        assert!(buf.len() <= END_BYTES && tail.len() <= END_BYTES);
        assert_eq!(top_level_id(&buf), None);
        assert_eq!(trailing_id(&tail), Some(Value::from(9)));
        buf.clear();
        assert_eq!(
            read_line(&mut reader, &mut buf).await.unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"{\"next\":1}\n");
        buf.clear();
        assert_eq!(
            read_line(&mut reader, &mut buf).await.unwrap(),
            LineRead::Eof
        );
    }
}
