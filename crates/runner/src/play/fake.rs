//! A scripted stand-in for real processes, with its own clock, for unit
//! tests of the loop: no subprocess, no sleep.

use std::time::{Duration, Instant};

use super::procs::Processes;
use crate::process::{Event, LimitsSeen, Tagged};
use crate::stderr_log::CappedLog;

/// What a fake process does when it is sent lines: events to deliver
/// after the given number of milliseconds (of the fake clock).
pub(crate) type Script = Box<dyn FnMut(Call<'_>) -> Vec<(u64, Event)>>;

/// One `send` to a fake process.
pub(crate) struct Call<'l> {
    /// The process's generation (1 for the seat's first).
    pub(crate) generation: u64,
    pub(crate) lines: &'l [String],
}

struct Scheduled {
    at: Duration,
    seat: usize,
    generation: u64,
    event: Event,
}

pub(crate) struct Fake {
    base: Instant,
    /// The fake clock: time since `base`.
    clock: Duration,
    scripts: Vec<Script>,
    generation: Vec<u64>,
    live: Vec<bool>,
    /// Events not yet delivered, in the order scheduled. Events of a
    /// retired process stay: they stand for output already in flight,
    /// which the loop must drop by generation.
    scheduled: Vec<Scheduled>,
    logs: Vec<CappedLog>,
    /// How long the loop is made to take after each wait that returned
    /// events (time passes before it looks at them).
    pub(crate) busy: Duration,
    /// How much later than asked a wait may return (a loaded machine).
    pub(crate) oversleep: Duration,
    /// Every line sent, per seat, with its generation.
    pub(crate) sent: Vec<Vec<(u64, String)>>,
    /// Per seat: the share of a CPU its processes use while they live
    /// (`None`: CPU time cannot be measured).
    pub(crate) cpu_share: Vec<Option<f64>>,
    /// When each seat's current process started, on the fake clock.
    started_at: Vec<Duration>,
    /// Per seat: what the limits of each generation's process show at its
    /// end (none where not given).
    pub(crate) limits: Vec<Vec<(u64, LimitsSeen)>>,
    /// Per seat: how long each start after the seat's first keeps the
    /// loop (its last process being killed and its box emptied, which a
    /// process with a large address space makes slow).
    pub(crate) restart_cost: Vec<Duration>,
}

impl Fake {
    pub(crate) fn new(scripts: Vec<Script>) -> Self {
        let seats = scripts.len();
        Self {
            base: Instant::now(),
            clock: Duration::ZERO,
            scripts,
            generation: vec![0; seats],
            live: vec![false; seats],
            scheduled: Vec::new(),
            logs: (0..seats).map(|_| CappedLog::new(1 << 16)).collect(),
            busy: Duration::ZERO,
            oversleep: Duration::ZERO,
            sent: vec![Vec::new(); seats],
            cpu_share: vec![None; seats],
            started_at: vec![Duration::ZERO; seats],
            limits: vec![Vec::new(); seats],
            restart_cost: vec![Duration::ZERO; seats],
        }
    }
}

impl Processes for Fake {
    fn now(&self) -> Instant {
        self.base + self.clock
    }

    fn start(&mut self, seat: usize, generation: u64) -> std::io::Result<i32> {
        if generation > 1 {
            self.clock += self.restart_cost[seat];
        }
        self.generation[seat] = generation;
        self.live[seat] = true;
        self.started_at[seat] = self.clock;
        Ok(i32::try_from(1000 * seat as u64 + generation).unwrap_or(i32::MAX))
    }

    fn send(&mut self, seat: usize, lines: &[String]) {
        if !self.live[seat] {
            return;
        }
        let generation = self.generation[seat];
        self.sent[seat].extend(lines.iter().map(|l| (generation, l.clone())));
        let events = (self.scripts[seat])(Call { generation, lines });
        for (after_ms, event) in events {
            self.scheduled.push(Scheduled {
                at: self.clock + Duration::from_millis(after_ms),
                seat,
                generation,
                event,
            });
        }
    }

    fn close_input(&mut self, _seat: usize) {}

    fn retire(&mut self, seat: usize) {
        self.live[seat] = false;
    }

    fn stderr_position(&self, seat: usize) -> u64 {
        self.logs[seat].total_bytes()
    }

    fn note_stderr(&mut self, seat: usize, text: &str) {
        self.logs[seat].push(text.as_bytes());
    }

    /// Delivers the earliest due events of one process as one batch,
    /// moving the clock to when they arrived (then on by `busy`), or lets
    /// the whole timeout pass.
    fn wait(&mut self, timeout: Duration) -> Vec<Tagged> {
        let horizon = self.clock + timeout + self.oversleep;
        let Some(first) = self
            .scheduled
            .iter()
            .filter(|s| s.at <= horizon)
            .min_by_key(|s| s.at)
        else {
            self.clock += timeout;
            return Vec::new();
        };
        let (at, seat, generation) = (first.at, first.seat, first.generation);
        self.clock = self.clock.max(at);
        let mut events = Vec::new();
        let mut i = 0;
        while i < self.scheduled.len() {
            let s = &self.scheduled[i];
            if s.at == at && s.seat == seat && s.generation == generation {
                events.push(self.scheduled.remove(i).event);
            } else {
                i += 1;
            }
        }
        let batch = Tagged {
            seat,
            generation,
            events,
            at: self.base + self.clock,
        };
        self.clock += self.busy;
        vec![batch]
    }

    fn shutdown(&mut self) {
        self.live.iter_mut().for_each(|l| *l = false);
    }

    fn stderr_log(&self, seat: usize) -> &CappedLog {
        &self.logs[seat]
    }

    fn cpu_time(&self, seat: usize) -> Option<Duration> {
        let share = self.cpu_share[seat]?;
        self.live[seat].then(|| (self.clock - self.started_at[seat]).mul_f64(share))
    }

    /// What was given for the current process, once.
    fn limits_hit(&mut self, seat: usize, _wait: Duration) -> LimitsSeen {
        let generation = self.generation[seat];
        let given = &mut self.limits[seat];
        match given.iter().position(|(g, _)| *g == generation) {
            Some(i) => given.remove(i).1,
            None => LimitsSeen::default(),
        }
    }
}
