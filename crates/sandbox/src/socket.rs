//! Messages over a Unix socket pair with descriptors attached, and waiting
//! for one until a deadline: how dojo talks to a box's init and to a box
//! maker.

use std::io::IoSlice;
use std::mem::MaybeUninit;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags};
use rustix::net::{SendAncillaryBuffer, SendAncillaryMessage, SendFlags, sendmsg};

/// A pair of connected message sockets (close-on-exec): dojo's end and
/// the other's.
pub(crate) fn pair() -> std::io::Result<(OwnedFd, OwnedFd)> {
    use rustix::net::{AddressFamily, SocketFlags, SocketType, socketpair};
    Ok(socketpair(
        AddressFamily::UNIX,
        SocketType::SEQPACKET,
        SocketFlags::CLOEXEC,
        None,
    )?)
}

/// Most descriptors a message carries (a box's request: its init's end
/// of a socket and the `cgroup.procs` of each of its groups).
pub(crate) const MOST_FDS: usize = 1 + crate::sys::MOST_GROUPS;

/// Sends `bytes` as one message with `fds` (at most [`MOST_FDS`]); `who`
/// names the other end in the error of a short message.
pub(crate) fn send(
    socket: &OwnedFd,
    bytes: &[u8],
    fds: &[BorrowedFd<'_>],
    flags: SendFlags,
    who: &str,
) -> std::io::Result<()> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MOST_FDS))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(std::io::Error::other("no room for the descriptors"));
    }
    let sent = sendmsg(socket, &[IoSlice::new(bytes)], &mut control, flags)?;
    if sent != bytes.len() {
        return Err(std::io::Error::other(format!("short message to {who}")));
    }
    Ok(())
}

/// Waits until `socket` is readable or `deadline` has passed: false then.
pub(crate) fn readable_by(socket: &OwnedFd, deadline: Instant) -> bool {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        let mut fds = [PollFd::new(socket, PollFlags::IN)];
        if let Ok(n) = rustix::event::poll(&mut fds, Some(&crate::sys::timespec(left)))
            && n > 0
        {
            return true;
        }
    }
}

/// [`readable_by`] a deadline `wait` from now.
pub(crate) fn readable_within(socket: &OwnedFd, wait: Duration) -> bool {
    readable_by(socket, Instant::now() + wait)
}
