//! Cutting a seat's stderr into one entry per prompt.
//!
//! The log of a seat is one stream of bytes over all its processes. When a
//! prompt goes out, the position the stream will have reached once
//! everything written so far is read (what the log holds plus what still
//! waits in the pipe) is marked: bytes before the mark belong to earlier
//! prompts, so a line a bot wrote just before its answer stays with that
//! answer even if the loop reads it later.

use crate::stderr_log::CappedLog;

/// Longest stderr text kept for one prompt with
/// [`RunOptions::keep_stderr`](crate::RunOptions::keep_stderr).
pub const STDERR_ENTRY_CAP_BYTES: usize = 4096;

/// Where each prompt's stderr starts in the seat's stream.
#[derive(Debug, Default)]
pub(crate) struct StderrCut {
    /// For every prompt after the first, the stream position where its
    /// entry starts.
    marks: Vec<u64>,
    /// Prompts sent so far.
    prompts: usize,
}

impl StderrCut {
    /// Notes that a prompt goes out now, the stream standing at
    /// `position` (asked only when needed: it costs a system call).
    pub(crate) fn mark(&mut self, position: impl FnOnce() -> u64) {
        if self.prompts > 0 {
            self.marks.push(position());
        }
        self.prompts += 1;
    }

    /// Entry `k` is what was written from prompt `k` being sent until
    /// prompt `k + 1` was (entry 0 also holds what came before the first
    /// prompt, the last everything after); each at most
    /// [`STDERR_ENTRY_CAP_BYTES`].
    pub(crate) fn split(&self, log: &CappedLog) -> Vec<String> {
        let starts = std::iter::once(0).chain(self.marks.iter().copied());
        let ends = self.marks.iter().copied().chain(std::iter::once(u64::MAX));
        starts
            .zip(ends)
            .take(self.prompts)
            .map(|(start, end)| {
                let mut entry = String::new();
                push_capped(&mut entry, &log.slice(start, end));
                entry
            })
            .collect()
    }
}

/// Appends `text` to `entry`, keeping at most [`STDERR_ENTRY_CAP_BYTES`]
/// and noting (once) that the rest was dropped.
fn push_capped(entry: &mut String, text: &str) {
    const NOTE: &str = "[dojo: more stderr for this prompt not kept]\n";
    if text.is_empty() || entry.ends_with(NOTE) {
        return;
    }
    let room = STDERR_ENTRY_CAP_BYTES.saturating_sub(entry.len());
    if text.len() <= room {
        entry.push_str(text);
        return;
    }
    let mut cut = room;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    entry.push_str(&text[..cut]);
    if !entry.is_empty() && !entry.ends_with('\n') {
        entry.push('\n');
    }
    entry.push_str(NOTE);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_capped_with_a_note() {
        let mut entry = String::new();
        push_capped(&mut entry, "ok\n");
        push_capped(&mut entry, &"y".repeat(STDERR_ENTRY_CAP_BYTES));
        assert!(entry.starts_with("ok\nyyy"));
        assert!(entry.ends_with("not kept]\n"));
        assert!(entry.len() <= STDERR_ENTRY_CAP_BYTES + 60);
        let before = entry.clone();
        push_capped(&mut entry, "more");
        assert_eq!(entry, before);
    }

    #[test]
    fn cut_at_marks_with_one_entry_per_prompt() {
        let mut log = CappedLog::new(100);
        let mut cut = StderrCut::default();
        log.push(b"boot\n");
        cut.mark(|| unreachable!("the first prompt needs no mark"));
        log.push(b"one\n");
        // Two bytes still in the pipe belong to the first prompt.
        cut.mark(|| log.total_bytes() + 2);
        log.push(b"..two\n");
        cut.mark(|| log.total_bytes());
        assert_eq!(cut.split(&log), ["boot\none\n..", "two\n", ""]);
    }
}
