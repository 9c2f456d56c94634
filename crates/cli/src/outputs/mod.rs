//! Every command's outputs behind one interface: the output flags,
//! declared once ([`Format`]) and offered by each command for the formats
//! its result has ([`Run::FORMATS`]); resolved once into [`Outputs`], after
//! which no command reads a flag; and one trait, [`Output`], that the
//! terminal, the JSON file, the HTML page, the live pages of a running
//! league and the JUnit report implement.
//!
//! A command's run is one of a few kinds ([`Run`]): a game played
//! (`dojo match`, [`game::Played`]), a game shown again (`dojo replay`,
//! [`replay::Shown`]), a league (`dojo league`, `merge`, `report`,
//! [`league::League`]) and a comparison (`dojo compare`,
//! [`compare::Compared`]). Each kind says which output flags it offers, how
//! its outputs are made from the files asked for ([`Run::outputs`]) and
//! what its run tells as it goes ([`Run::Listener`]: a league's
//! [`dojo_league::Progress`], a comparison's
//! [`dojo_league::compare::CompareProgress`]). An output hears that event
//! stream if it wants to (the terminal's progress bar, the live pages) and
//! renders the finished result ([`Output::finish`]); the command hands
//! its result to [`Outputs::finish`] and calls no writer itself.
//!
//! Adding a format (CSV, say): its entry in [`Format`], its output type
//! (a module beside [`junit`]), and the line that makes it in the
//! [`Run::outputs`] of each kind of run it renders, with the format added
//! to that kind's [`Run::FORMATS`]; `ARCHITECTURE.md` lists the files.

pub mod compare;
pub mod game;
pub mod junit;
pub mod league;
pub mod replay;

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::outpaths::Named;

/// An output format a command can write to a file, each with its one
/// flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    /// `--json FILE`: the result as JSON.
    Json,
    /// `--html FILE`: the result as one self-contained page.
    Html,
    /// `--junit FILE`: the result as a JUnit XML report, for CI systems.
    Junit,
}

impl Format {
    /// Every format, in the order outputs are written.
    pub const ALL: [Format; 3] = [Format::Json, Format::Html, Format::Junit];

    /// The flag's name without its dashes, also its clap id.
    pub fn id(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Html => "html",
            Format::Junit => "junit",
        }
    }

    /// `--json`, as messages name it.
    pub fn flag(self) -> &'static str {
        match self {
            Format::Json => "--json",
            Format::Html => "--html",
            Format::Junit => "--junit",
        }
    }

    /// The flag's help, the same for every command that offers it.
    fn help(self) -> &'static str {
        match self {
            Format::Json => {
                "Write the result as JSON to FILE (`-`: stdout); docs/records.md \
                 and docs/ci-compare.md describe the fields"
            }
            Format::Html => {
                "Write the result as one self-contained HTML page (data, style and \
                 scripts inside; it works offline) to FILE"
            }
            Format::Junit => {
                "Write the result as a JUnit XML report to FILE (`-`: stdout), for CI \
                 systems that show test results: one test case, failed when NEW is \
                 worse (docs/ci-compare.md)"
            }
        }
    }
}

/// What a command's run is to its outputs: which output flags it offers,
/// what it tells as it goes and how its outputs are made.
pub trait Run: Sized + 'static {
    /// The formats the command writes; its `--help` offers these flags
    /// and no other, so no flag is given to it in vain.
    const FORMATS: &'static [Format];
    /// What the run tells its outputs as it goes (`()`: nothing).
    type Listener: ?Sized;
    /// What the outputs need to know before the run (where a league is,
    /// how progress is shown), beside the files asked for.
    type Setup;
    /// The outputs of a run: the terminal's first, then one per file
    /// asked for in [`Format::ALL`]'s order (and any the run has beside
    /// them: a league's remembered pages).
    fn outputs(files: &Files, setup: Self::Setup) -> Vec<Box<dyn Output<Self>>>;
}

/// One rendering of a command's result.
pub trait Output<R: Run> {
    /// Where this output hears the run's events, if it does (a progress
    /// bar, a live page); most render only the end.
    fn listener(&mut self) -> Option<&mut R::Listener> {
        None
    }

    /// Renders the finished result.
    fn finish(&mut self, result: &R) -> Result<()>;

    /// The run ended in an error, with no result: what the output leaves
    /// (a live page says where the league stopped).
    fn stopped(&mut self) -> Result<()> {
        Ok(())
    }
}

/// The files the output flags name, by format: the resolved value of
/// [`OutputArgs`], checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Files(BTreeMap<Format, PathBuf>);

impl Files {
    /// Where `format` is written, if it was asked for.
    pub fn path(&self, format: Format) -> Option<&Path> {
        self.0.get(&format).map(PathBuf::as_path)
    }

    /// Each file asked for with its flag, for `crate::outpaths::check`.
    fn named(&self) -> Vec<Option<Named<'_>>> {
        (self.0.iter())
            .map(|(format, path)| Named::file(format.flag(), Some(path)))
            .collect()
    }
}

/// The output flags of a command whose run is `R`: one flag per format of
/// `R::FORMATS`, each declared once in [`Format`].
pub struct OutputArgs<R> {
    files: Files,
    run: PhantomData<fn() -> R>,
}

impl<R> std::fmt::Debug for OutputArgs<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("OutputArgs").field(&self.files).finish()
    }
}

impl<R> Default for OutputArgs<R> {
    fn default() -> Self {
        OutputArgs {
            files: Files::default(),
            run: PhantomData,
        }
    }
}

impl<R> Clone for OutputArgs<R> {
    fn clone(&self) -> Self {
        OutputArgs {
            files: self.files.clone(),
            run: PhantomData,
        }
    }
}

impl<R: Run> OutputArgs<R> {
    /// Whether `format`'s flag was given (for a command that does
    /// something else instead, as `dojo replay --html` shows no text).
    pub fn asks_for(&self, format: Format) -> bool {
        self.files.path(format).is_some()
    }

    /// Resolves the flags: checks every file asked for, beside the
    /// command's other outputs and its inputs, before any work is done
    /// (`crate::outpaths::check`), and hands back what the run's outputs
    /// are made from once its setup is known ([`Resolved::open`]).
    pub fn resolve(
        &self,
        others: &[Option<Named<'_>>],
        inputs: &[Option<Named<'_>>],
    ) -> Result<Resolved<R>> {
        let mut outputs = self.files.named();
        outputs.extend_from_slice(others);
        crate::outpaths::check(&outputs, inputs)?;
        Ok(Resolved {
            files: self.files.clone(),
            run: PhantomData,
        })
    }
}

/// The output files of a run, checked: the one value the command reads
/// after parsing.
pub struct Resolved<R> {
    files: Files,
    run: PhantomData<fn() -> R>,
}

impl<R: Run> Resolved<R> {
    /// The files asked for.
    pub fn files(&self) -> &Files {
        &self.files
    }

    /// The run's outputs, made now that `setup` is known.
    pub fn open(&self, setup: R::Setup) -> Outputs<R> {
        Outputs {
            outputs: R::outputs(&self.files, setup),
        }
    }
}

/// Every output of one run: the terminal and the files asked for.
pub struct Outputs<R> {
    outputs: Vec<Box<dyn Output<R>>>,
}

impl<R: Run> Outputs<R> {
    /// Hands `result` to every output, in order. One that fails does not
    /// keep the others from being written: its error is returned (the
    /// first; any later one is said on stderr).
    pub fn finish(&mut self, result: &R) -> Result<()> {
        every(&mut self.outputs, |o| o.finish(result))
    }

    /// The run ended in an error: every output leaves what it leaves then.
    pub fn stopped(&mut self) -> Result<()> {
        every(&mut self.outputs, |o| o.stopped())
    }

    /// Each output that hears the run's events.
    pub fn listeners(&mut self) -> impl Iterator<Item = &mut R::Listener> {
        self.outputs.iter_mut().filter_map(|o| o.listener())
    }
}

/// `f` on each of `outputs`; the first error (the others said).
fn every<R: Run>(
    outputs: &mut [Box<dyn Output<R>>],
    mut f: impl FnMut(&mut dyn Output<R>) -> Result<()>,
) -> Result<()> {
    let mut first = None;
    for output in outputs {
        if let Err(e) = f(output.as_mut()) {
            if first.is_none() {
                first = Some(e);
            } else {
                errln!("error: {e:#}");
            }
        }
    }
    first.map_or(Ok(()), Err)
}

impl<R: Run> clap::FromArgMatches for OutputArgs<R> {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut files = Files::default();
        for &format in R::FORMATS {
            if let Some(path) = m.get_one::<PathBuf>(format.id()) {
                files.0.insert(format, path.clone());
            }
        }
        Ok(OutputArgs {
            files,
            run: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl<R: Run> clap::Args for OutputArgs<R> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        R::FORMATS.iter().fold(cmd, |cmd, format| {
            cmd.arg(
                clap::Arg::new(format.id())
                    .long(format.id())
                    .value_name("FILE")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help(format.help()),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// Says where an output went (`report page: FILE`), unless it went to
/// stdout, which carried it.
pub(crate) fn say_written(what: &str, path: &Path) {
    if !crate::output::is_stdout(path) {
        outln!("{what}: {}", shown_path(path).display());
    }
}

/// `path` as a message names it: relative to the current directory when
/// it is under it, else as it is. A league keeps its pages' paths
/// absolute (a resume may run elsewhere), and a page given now may be
/// relative: both are named alike.
pub(crate) fn shown_path(path: &Path) -> std::borrow::Cow<'_, Path> {
    let cwd = std::env::current_dir().ok();
    match cwd.as_deref().and_then(|cwd| path.strip_prefix(cwd).ok()) {
        Some(rel) if path.is_absolute() && !rel.as_os_str().is_empty() => rel.to_path_buf().into(),
        _ => path.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args, FromArgMatches};

    /// A run that offers JSON and JUnit and renders each as its
    /// format's name into a shared log.
    struct Toy;

    type Log = std::rc::Rc<std::cell::RefCell<Vec<String>>>;

    struct Writes(Format, Log);

    impl Output<Toy> for Writes {
        fn finish(&mut self, _: &Toy) -> Result<()> {
            self.1.borrow_mut().push(self.0.id().to_owned());
            if self.0 == Format::Json {
                anyhow::bail!("json failed");
            }
            Ok(())
        }
    }

    thread_local! {
        static LOG: Log = Log::default();
    }

    impl Run for Toy {
        const FORMATS: &'static [Format] = &[Format::Json, Format::Junit];
        type Listener = ();
        type Setup = ();
        fn outputs(files: &Files, (): ()) -> Vec<Box<dyn Output<Self>>> {
            let log = LOG.with(Log::clone);
            (Format::ALL.into_iter())
                .filter(|&f| files.path(f).is_some())
                .map(|f| Box::new(Writes(f, log.clone())) as Box<dyn Output<Toy>>)
                .collect()
        }
    }

    fn parse(args: &[&str]) -> Result<OutputArgs<Toy>, clap::Error> {
        let cmd = OutputArgs::<Toy>::augment_args(clap::Command::new("toy").no_binary_name(true));
        OutputArgs::from_arg_matches(&cmd.try_get_matches_from(args)?)
    }

    #[test]
    fn a_command_offers_the_flags_of_its_formats_and_no_other() {
        let a = parse(&["--json", "r.json", "--junit", "-"]).unwrap();
        assert_eq!(a.files.path(Format::Json), Some(Path::new("r.json")));
        assert_eq!(a.files.path(Format::Junit), Some(Path::new("-")));
        assert!(!a.asks_for(Format::Html));
        // Not offered: clap refuses it, naming the flag.
        let err = parse(&["--html", "p.html"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::UnknownArgument);
        assert!(err.to_string().contains("--html"), "{err}");
        assert_eq!(parse(&[]).unwrap().files, Files::default());
    }

    #[test]
    fn every_offered_flag_has_its_one_help_and_value_name() {
        let cmd = OutputArgs::<Toy>::augment_args(clap::Command::new("toy"));
        let args: Vec<_> = cmd.get_arguments().collect();
        assert_eq!(args.len(), 2);
        for (arg, format) in args.into_iter().zip(Toy::FORMATS) {
            assert_eq!(arg.get_long(), Some(format.id()));
            assert_eq!(format.flag(), format!("--{}", format.id()));
            assert_eq!(
                arg.get_value_names().unwrap()[0].as_str(),
                "FILE",
                "{format:?}"
            );
            assert_eq!(arg.get_help().unwrap().to_string(), format.help());
        }
    }

    #[test]
    fn resolving_checks_the_files_and_every_output_is_finished_despite_a_failure() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("r.json").display().to_string();
        let junit = dir.path().join("r.xml").display().to_string();
        let resolved = parse(&["--json", &json, "--junit", &junit])
            .unwrap()
            .resolve(&[], &[])
            .unwrap();
        let mut outputs = resolved.open(());
        let err = outputs.finish(&Toy).unwrap_err();
        assert_eq!(err.to_string(), "json failed");
        // The JUnit output was written after the JSON one failed.
        assert_eq!(*LOG.with(Log::clone).borrow(), ["json", "junit"]);
        // A file that cannot be written is refused before any work,
        // naming its flag.
        std::fs::write(dir.path().join("file"), "mine").unwrap();
        let missing = dir.path().join("file/r.xml").display().to_string();
        let err = parse(&["--junit", &missing])
            .unwrap()
            .resolve(&[], &[])
            .err()
            .unwrap();
        assert!(err.to_string().starts_with("--junit "), "{err}");
        assert!(err.to_string().contains("is not a directory"), "{err}");
        // Two outputs on one file.
        let err = parse(&["--json", &json, "--junit", &json])
            .unwrap()
            .resolve(&[], &[])
            .err()
            .unwrap();
        assert!(err.to_string().contains("--json"), "{err}");
    }
}
