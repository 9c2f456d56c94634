//! Splitting a bot's output into lines without trusting it: a line longer
//! than the cap is reported once and skipped up to its newline, so a bot
//! cannot make the harness buffer an unbounded line.

use std::io::{self, Read};

/// Default cap on one line of bot output (64 KiB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024;

/// One item read from a bot's output stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineEvent {
    /// A complete line, without its `\n` or `\r\n` (invalid UTF-8 is
    /// replaced). A last line without a newline before EOF counts too.
    Line(String),
    /// A line longer than the cap; the rest of it up to its newline is
    /// discarded and reading continues with the next line.
    TooLong,
    /// End of stream (or a read error, which means the same to us).
    Eof,
}

/// Splits bytes pushed into it into capped lines: the push-driven core
/// of [`CappedLines`], for callers that read a non-blocking pipe
/// themselves. Memory stays under the cap whatever the input.
#[derive(Debug, Clone)]
pub struct LineBuffer {
    max_line_bytes: usize,
    /// The start of a line whose newline has not arrived yet.
    pending: Vec<u8>,
    /// Skipping the tail of an over-long line until its newline.
    discarding: bool,
}

impl LineBuffer {
    /// An empty buffer for lines of at most `max_line_bytes` bytes (not
    /// counting the `\n`); 0 is treated as 1.
    pub fn new(max_line_bytes: usize) -> Self {
        Self {
            max_line_bytes: max_line_bytes.max(1),
            pending: Vec::new(),
            discarding: false,
        }
    }

    /// Takes the next bytes of the stream and reports every line they
    /// complete (and an over-long line as soon as it passes the cap).
    pub fn push(&mut self, mut bytes: &[u8], out: &mut impl FnMut(LineEvent)) {
        while let Some(pos) = bytes.iter().position(|&b| b == b'\n') {
            let (head, rest) = (&bytes[..pos], &bytes[pos + 1..]);
            bytes = rest;
            if std::mem::replace(&mut self.discarding, false) {
                continue;
            }
            if self.pending.is_empty() {
                out(self.finish_line(head));
            } else {
                self.pending.extend_from_slice(head);
                let line = std::mem::take(&mut self.pending);
                out(self.finish_line(&line));
                // Keep the allocation for the next partial line.
                self.pending = line;
                self.pending.clear();
            }
        }
        if self.discarding || bytes.is_empty() {
            return;
        }
        if self.pending.len() + bytes.len() > self.max_line_bytes {
            self.pending.clear();
            self.discarding = true;
            out(LineEvent::TooLong);
        } else {
            self.pending.extend_from_slice(bytes);
        }
    }

    /// Whether bytes of an unfinished line are held.
    pub fn has_partial_line(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The end of the stream: a last line without a newline counts, then
    /// [`LineEvent::Eof`].
    pub fn finish(&mut self, out: &mut impl FnMut(LineEvent)) {
        if !self.discarding && !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            out(self.finish_line(&line));
        }
        self.discarding = false;
        out(LineEvent::Eof);
    }

    fn finish_line(&self, line: &[u8]) -> LineEvent {
        if line.len() > self.max_line_bytes {
            return LineEvent::TooLong;
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        LineEvent::Line(String::from_utf8_lossy(line).into_owned())
    }
}

/// Reads lines of at most `max_line_bytes` bytes (not counting the `\n`)
/// from a blocking reader.
#[derive(Debug)]
pub struct CappedLines<R> {
    source: R,
    lines: LineBuffer,
    /// Events already split off and not yet returned.
    ready: std::collections::VecDeque<LineEvent>,
    at_eof: bool,
}

const CHUNK: usize = 8 * 1024;

impl<R: Read> CappedLines<R> {
    /// Wraps `source`; `max_line_bytes` of 0 is treated as 1.
    pub fn new(source: R, max_line_bytes: usize) -> Self {
        Self {
            source,
            lines: LineBuffer::new(max_line_bytes),
            ready: std::collections::VecDeque::new(),
            at_eof: false,
        }
    }

    /// The next line event. After `Eof` it keeps returning `Eof`.
    pub fn next_event(&mut self) -> LineEvent {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return event;
            }
            if self.at_eof {
                return LineEvent::Eof;
            }
            self.fill();
        }
    }

    /// Whether [`next_event`](Self::next_event) can answer from what has
    /// been read already, without blocking on the source.
    pub fn has_buffered_event(&self) -> bool {
        self.at_eof || !self.ready.is_empty()
    }

    fn fill(&mut self) {
        let mut buf = [0u8; CHUNK];
        let read = loop {
            match self.source.read(&mut buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break 0,
            }
        };
        let ready = &mut self.ready;
        if read == 0 {
            self.at_eof = true;
            self.lines.finish(&mut |e| {
                if e != LineEvent::Eof {
                    ready.push_back(e);
                }
            });
        } else {
            self.lines.push(&buf[..read], &mut |e| ready.push_back(e));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its data in fixed small pieces, to cross
    /// chunk boundaries inside lines.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn events(data: &[u8], cap: usize, step: usize) -> Vec<LineEvent> {
        let mut lines = CappedLines::new(Trickle { data, step }, cap);
        let mut out = Vec::new();
        loop {
            let event = lines.next_event();
            let done = event == LineEvent::Eof;
            out.push(event);
            if done {
                return out;
            }
        }
    }

    fn line(s: &str) -> LineEvent {
        LineEvent::Line(s.to_string())
    }

    #[test]
    fn exact_cap_is_a_line_and_one_more_byte_is_too_long() {
        for step in [1, 3, 8192] {
            assert_eq!(
                events(b"12345678\n123456789\nok\n", 8, step),
                vec![
                    line("12345678"),
                    LineEvent::TooLong,
                    line("ok"),
                    LineEvent::Eof
                ],
                "step {step}"
            );
        }
    }

    #[test]
    fn over_long_line_is_reported_once_then_reading_goes_on() {
        let mut data = vec![b'x'; 100_000];
        data.extend_from_slice(b"\n3\n");
        for step in [7, 4096, 200_000] {
            assert_eq!(
                events(&data, 64, step),
                vec![LineEvent::TooLong, line("3"), LineEvent::Eof],
                "step {step}"
            );
        }
    }

    #[test]
    fn buffered_events_are_reported_without_reading() {
        let mut lines = CappedLines::new(
            Trickle {
                data: b"1\n2\n3",
                step: 100,
            },
            8,
        );
        assert!(!lines.has_buffered_event());
        assert_eq!(lines.next_event(), line("1"));
        assert!(lines.has_buffered_event());
        assert_eq!(lines.next_event(), line("2"));
        // "3" has no newline yet: the next event needs another read.
        assert!(!lines.has_buffered_event());
        assert_eq!(lines.next_event(), line("3"));
        assert!(lines.has_buffered_event());
        assert_eq!(lines.next_event(), LineEvent::Eof);
    }

    #[test]
    fn crlf_and_final_unterminated_line() {
        assert_eq!(
            events(b"a\r\nb\n\nlast", 16, 2),
            vec![line("a"), line("b"), line(""), line("last"), LineEvent::Eof]
        );
    }

    #[test]
    fn unterminated_over_long_tail_ends_in_eof() {
        assert_eq!(
            events(b"ok\nxxxxxxxxxxxxxxxxxxxx", 4, 5),
            vec![line("ok"), LineEvent::TooLong, LineEvent::Eof]
        );
    }

    #[test]
    fn line_buffer_holds_at_most_the_cap() {
        let mut lines = LineBuffer::new(16);
        let mut seen = Vec::new();
        for _ in 0..1000 {
            lines.push(&[b'x'; 7], &mut |e| seen.push(e));
            assert!(lines.pending.len() <= 16);
        }
        lines.push(b"\nok\nhalf", &mut |e| seen.push(e));
        assert!(lines.has_partial_line());
        lines.finish(&mut |e| seen.push(e));
        assert_eq!(
            seen,
            vec![LineEvent::TooLong, line("ok"), line("half"), LineEvent::Eof]
        );
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        assert_eq!(
            events(b"\xff1\n", 8, 8),
            vec![line("\u{fffd}1"), LineEvent::Eof]
        );
    }
}
