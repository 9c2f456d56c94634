//! A box's minimal root as its bot sees it: every mount in it, read from
//! the bot's own `/proc/self/mountinfo`, has the attributes the root
//! promises (`docs/sandbox.md`, the minimal root). The root's read-only
//! parts are sealed together by one recursive `mount_setattr` over the
//! root (`crate::sys::root`): this checks that the seal reached every
//! one of them, the mounts below the bound system directories included,
//! and that what is mounted after it kept its own attributes.

mod support;

use std::path::Path;

use support::{TestBox, minimal_root_box, read_all};

/// One line of `mountinfo`: the mount point and its per-mount options.
struct Mount {
    point: String,
    options: Vec<String>,
}

impl Mount {
    fn has(&self, option: &str) -> bool {
        self.options.iter().any(|o| o == option)
    }
}

fn parse(mountinfo: &str) -> Vec<Mount> {
    mountinfo
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            // The kernel escapes spaces in paths as \040.
            Mount {
                point: fields[4].replace("\\040", " "),
                options: fields[5].split(',').map(str::to_owned).collect(),
            }
        })
        .collect()
}

#[test]
fn every_mount_of_a_boxs_root_is_read_only_but_its_scratch_proc_and_devices() {
    let Some(TestBox {
        mut made,
        bot,
        scratch: scratch_path,
        scratch_made: path,
        ..
    }) = minimal_root_box("mounts", |_| {
        vec!["cat".to_string(), "/proc/self/mountinfo".to_string()]
    })
    else {
        return;
    };
    let mut occupant = made.start(&[]).expect("cat starts");
    let text = read_all(&mut occupant.stdout);
    let mounts = parse(&text);
    let present = |point: &str| mounts.iter().any(|m| m.point == point);
    // The root itself, the system and the bot's directory are there.
    for point in ["/", "/usr", "/dev", "/proc"] {
        assert!(present(point), "no {point}: {text}");
    }
    assert!(present(bot.to_str().unwrap()), "{text}");
    let scratch_point = scratch_path.to_str().unwrap();
    let devices = [
        "/dev/null",
        "/dev/zero",
        "/dev/full",
        "/dev/random",
        "/dev/urandom",
    ];
    let mut sealed = 0;
    for mount in &mounts {
        let point = mount.point.as_str();
        let shown = || format!("{point} {:?}\n{text}", mount.options);
        if point == "/proc" || point.starts_with("/proc/") {
            // Its own /proc, mounted after the seal: writable as it was.
            assert!(mount.has("nosuid") && mount.has("nodev"), "{}", shown());
        } else if point == scratch_point {
            // The scratch directory and each game's tmpfs over it.
            assert!(mount.has("rw"), "{}", shown());
            assert!(mount.has("nosuid") && mount.has("nodev"), "{}", shown());
        } else if devices.contains(&point) {
            assert!(mount.has("nosuid") && mount.has("noexec"), "{}", shown());
            assert!(!mount.has("nodev"), "{}", shown());
        } else {
            assert!(mount.has("ro"), "writable: {}", shown());
            assert!(mount.has("nosuid") && mount.has("nodev"), "{}", shown());
            sealed += 1;
        }
    }
    // The root, /dev and at least the system directories bound.
    assert!(sealed >= 3, "{text}");
    drop(occupant);
    drop(made);
    assert!(
        !Path::new(&path).exists(),
        "the scratch directory is removed"
    );
}
