//! `apcheck check PATH…`: finds the plugin roots each PATH names, reads and
//! checks them in parallel, renders the reports in a stable order and sets the
//! exit code.
//!
//! Which roots a PATH names is `apcheck::collection`'s answer (the page asks
//! it the same question about a dropped folder); this edge only lists the
//! directories on disk for it.
//!
//! With `--connect`, each loaded root's servers are then tried one root at a
//! time (each root's servers in parallel), and what came of each is added to
//! that root's findings (AP450 failed, AP451 connected).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apcheck::check_run::{CheckRoot, CheckRun};
use apcheck::collection::{Listing, Roots, join, roots_named};
use apcheck::disk::list_tree;
use apcheck::exit::{Deny, Exit};
use apcheck::render::{self, Format};
use apcheck::tree::{Limits, Tree, path_from_root};
use rayon::prelude::*;

use crate::fix;
use crate::output::{self, ColorChoice, EXIT_FAILURE, FormatTarget};
use crate::settings::{self, ConfigArgs};

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Plugin roots, or folders holding plugin roots at any depth (a marketplace repository).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// The output format; `FORMAT:FILE` writes it to FILE instead of standard output. Repeatable:
    /// `--format sarif:apcheck.sarif --format markdown:summary.md --format text` checks once and writes all three.
    #[arg(long, value_parser = output::FormatTargetParser, default_value = "text", value_name = "FORMAT[:FILE]")]
    format: Vec<FormatTarget>,
    /// Write the output that would go to standard output to FILE instead.
    #[arg(long, short = 'o', value_name = "FILE")]
    output_file: Option<PathBuf>,
    /// Print how many findings each rule made (text or json), instead of the findings; `FORMAT:FILE` outputs still get the whole report.
    #[arg(long)]
    statistics: bool,
    /// Print the findings and nothing else: no summary lines, no notes on standard error.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Exit 0 even when findings or a rejected plugin would fail the run. An incomplete check (exit 1) and
    /// a usage or I/O failure (exit 2) still fail: a gap is never a pass.
    #[arg(long)]
    exit_zero: bool,
    /// Fail (exit 1) on warnings too, not only on errors.
    #[arg(long, value_parser = output::deny_parser(), value_name = "LEVEL")]
    deny: Option<Deny>,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// SARIF without `originalUriBaseIds`: its URIs stay relative to the working directory, but the log
    /// names no absolute path of this machine, so it is the same in every checkout (and equals the page's download).
    #[arg(long)]
    no_sarif_base: bool,
    #[command(flatten)]
    connect: crate::connect::ConnectArgs,
    /// Apply the safe fixes rules offer, then report what is left.
    #[arg(long)]
    fix: bool,
    /// Apply unsafe fixes too (implies --fix): each guesses what was meant, so review them.
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print the fixes as a unified diff instead of writing them (exit 1 if there is any).
    #[arg(long)]
    diff: bool,
    /// Hide the findings this baseline records, so that only new ones fail (overrides `baseline` in the configuration).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline_write")]
    baseline: Option<PathBuf>,
    /// Record every finding of this check in FILE as the baseline, and exit 0 (2, and nothing written, when
    /// the check is incomplete).
    #[arg(long, value_name = "FILE")]
    baseline_write: Option<PathBuf>,
    #[command(flatten)]
    config: ConfigArgs,
}

/// One plugin root to check.
struct Root {
    dir: PathBuf,
    /// How it is named in the output: the PATH as given, joined with the path below it.
    name: String,
    /// The index of its PATH's settings.
    settings: usize,
    /// The root relative to its configuration's directory, for the configuration's globs.
    relative: String,
}

pub fn run(args: CheckArgs) -> ExitCode {
    let (targets, primary) = match output_targets(&args) {
        Ok(planned) => planned,
        Err(message) => return output::fail(message),
    };
    let mut roots = Vec::new();
    let mut loaded = Vec::with_capacity(args.paths.len());
    for path in &args.paths {
        let settings = match settings::load(path, &args.config) {
            Ok(settings) => settings,
            Err(message) => return output::fail(message),
        };
        match roots_named_by(path, &settings) {
            Ok(found) => {
                roots.extend(found.into_iter().map(|(dir, name)| Root {
                    relative: settings.relative(&dir),
                    dir,
                    name,
                    settings: loaded.len(),
                }));
            }
            Err(message) => return output::fail(message),
        }
        loaded.push(settings);
    }
    // The disk is read in parallel; the run (`apcheck::check_run`) decides the rest.
    let listed: Vec<Result<Tree, String>> = roots
        .par_iter()
        .map(|root| list_tree(&root.dir, Limits::default()).map_err(|error| format!("{}: {error}", root.name)))
        .collect();
    // Each root read goes to the run, its folder and settings kept beside it;
    // each root that could not be read is said in its place among the others.
    let mut checked = Vec::with_capacity(roots.len());
    let mut dirs = Vec::with_capacity(roots.len());
    let mut settings_of = Vec::with_capacity(roots.len());
    let mut unread: Vec<(usize, String)> = Vec::new();
    for (root, listed) in roots.into_iter().zip(listed) {
        match listed {
            Ok(tree) => {
                let settings = loaded[root.settings].settings.clone();
                dirs.push(root.dir);
                settings_of.push(root.settings);
                let root = CheckRoot {
                    name: root.name,
                    settings,
                    relative: root.relative,
                };
                checked.push((root, tree));
            }
            Err(message) => unread.push((checked.len(), message)),
        }
    }
    let mut io_failed = !unread.is_empty();
    let mut run = CheckRun::new();
    run.add_all(checked);
    let mut unread = unread.into_iter().peekable();
    for (index, dir) in dirs.iter().enumerate() {
        while let Some((_, message)) = unread.next_if(|(before, _)| *before <= index) {
            output::say(message);
        }
        let report = &run.reports()[index];
        if args.connect.connect && report.plugin.state == apcheck::report::PluginState::Loaded {
            match crate::connect::run(dir, report, &args.connect) {
                Ok(connected) if connected.interrupted => return ExitCode::from(EXIT_FAILURE),
                Ok(connected) => {
                    let findings = apcheck::live::diagnostics(&report.package, &connected.attempts);
                    run.add_live_findings(index, findings);
                }
                Err(message) => {
                    output::say(format!("{}: {message}", run.roots()[index].name));
                    io_failed = true;
                }
            }
        }
    }
    unread.for_each(|(_, message)| output::say(message));

    if args.fix || args.unsafe_fixes || args.diff {
        let fixed = run.fixes(apcheck::fix::allowed(args.unsafe_fixes));
        if args.diff {
            // Redirected, the diff applies as it is; a terminal gets it escaped.
            let terminal = std::io::IsTerminal::is_terminal(&std::io::stdout());
            let diff = run.fix_diff(&fixed, terminal);
            if let Err(code) = output::print(&diff.diff) {
                return code;
            }
            eprint!("{}", diff.summary);
            return output::exit_code(Exit::findings_if(diff.changes).unless_failed(io_failed));
        }
        for (dir, outcome) in dirs.iter().zip(&fixed) {
            if let Err(message) = fix::write_all(dir, outcome) {
                return output::fail(message);
            }
        }
        run.apply_fixes(&fixed);
        if !args.quiet {
            eprint!("{}", render::fix::applied(&fixed));
        }
    }

    if let Some(file) = &args.baseline_write {
        let (text, said) = match run.baseline_write(&file.display().to_string()) {
            Ok(written) => written,
            Err(refusals) => {
                refusals.into_iter().for_each(output::say);
                return output::exit_code(Exit::Failure);
            }
        };
        if let Err(error) = fs::write(file, text) {
            return output::fail(format!("{}: {error}", file.display()));
        }
        if !args.quiet {
            output::say(said);
        }
        return output::exit_code(Exit::Clean.unless_failed(io_failed));
    }
    for (index, &settings) in settings_of.iter().enumerate() {
        let named = args.baseline.clone().or_else(|| loaded[settings].baseline_file());
        let Some(file) = named else { continue };
        // Named by a package's own apcheck.toml, perhaps: never a FIFO that would hold the run up.
        let baseline = apcheck::disk::read_regular_text(&file)
            .map_err(|error| error.to_string())
            .and_then(|text| apcheck::baseline::Baseline::parse(&text));
        match baseline {
            Ok(mut baseline) => run.apply_baseline(index, &mut baseline),
            Err(message) => return output::fail(format!("{}: {message}", file.display())),
        }
    }

    if !run.reports().is_empty() || !io_failed {
        for (index, target) in targets.iter().enumerate() {
            let mut options = output::render_options(args.color);
            if args.no_sarif_base {
                options.source_root = None;
            }
            // The primary output (standard output, or `--output-file`) is the one
            // `--statistics` and `--quiet` shape; other files get the whole report.
            let primary = Some(index) == primary;
            options.quiet = primary && args.quiet;
            // A file never gets terminal colours.
            options.color &= target.file.is_none();
            let rendered = run.render(target.format, &options, primary && args.statistics);
            let written = match &target.file {
                Some(file) => {
                    fs::write(file, rendered).map_err(|error| output::fail(format!("{}: {error}", file.display())))
                }
                None => output::print(&rendered),
            };
            if let Err(code) = written {
                return code;
            }
        }
    }

    output::exit_code(Exit::findings_if(run.fails(args.exit_zero, args.deny)).unless_failed(io_failed))
}

/// Where each `--format` goes, and which one is the primary output: the one
/// without a file, which `--output-file` may send to a file. Refused before
/// anything is checked: two outputs on standard output would interleave, and
/// `--statistics` is a table or JSON.
fn output_targets(args: &CheckArgs) -> Result<(Vec<FormatTarget>, Option<usize>), String> {
    let mut targets = args.format.clone();
    let mut to_stdout = targets.iter().enumerate().filter(|(_, target)| target.file.is_none());
    let primary = to_stdout.next().map(|(index, _)| index);
    if to_stdout.next().is_some() {
        return Err(
            "only one --format can go to standard output; give the others a file, as in `--format sarif:apcheck.sarif`"
                .to_string(),
        );
    }
    if let Some(file) = &args.output_file {
        match primary {
            Some(index) => targets[index].file = Some(file.clone()),
            None => return Err("--output-file: every --format already names its file".to_string()),
        }
    }
    if args.statistics && !primary.is_some_and(|index| matches!(targets[index].format, Format::Text | Format::Json)) {
        return Err("--statistics prints a table (text) or json, on standard output or to --output-file".to_string());
    }
    // None when every output named a file.
    Ok((targets, primary))
}

/// The roots `path` names (see the module doc) as (directory, name),
/// leaving out what the configuration excludes.
fn roots_named_by(path: &Path, settings: &settings::Loaded) -> Result<Vec<(PathBuf, String)>, String> {
    let shown = path.display().to_string();
    let metadata = fs::metadata(path).map_err(|error| format!("{shown}: {error}"))?;
    if !metadata.is_dir() {
        return Err(format!(
            "{shown}: not a directory; give the plugin root, the directory that holds plugin.json"
        ));
    }
    let single = || (path.to_path_buf(), shown.clone());
    let below = match roots_named(&Disk { start: path, settings }) {
        Roots::Single => return Ok(vec![single()]),
        Roots::Collection(below) => below,
    };
    let roots = below
        .into_iter()
        .map(|relative| (path.join(&relative), path_from_root(&shown, &relative)))
        .collect();
    Ok(roots)
}

/// A directory on disk as the root search sees it: `.gitignore`-aware (with
/// `.ignore` files, as ripgrep reads them), not following symlinks, without
/// what the configuration's `exclude` globs name. Which of these directories
/// are roots is `apcheck::collection`'s rule.
struct Disk<'a> {
    start: &'a Path,
    settings: &'a settings::Loaded,
}

impl Listing for Disk<'_> {
    fn has_manifest(&self, dir: &str) -> bool {
        fs::symlink_metadata(self.start.join(dir).join("plugin.json")).is_ok()
    }

    fn child_dirs(&self, dir: &str) -> Option<Vec<String>> {
        // One level at a time, so the core decides where the search goes; the
        // walker still reads the ignore files of every parent directory.
        let base_of_start = self.settings.relative(self.start);
        let mut names = Vec::new();
        let walk = ignore::WalkBuilder::new(self.start.join(dir))
            .standard_filters(true)
            .require_git(false)
            .git_global(false)
            .follow_links(false)
            .max_depth(Some(1))
            .build();
        for entry in walk {
            // An I/O error is the directory's own listing failing (a child's
            // type comes with the listing); others are an ignore file's.
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) if error.io_error().is_some() => return None,
                Err(_) => continue,
            };
            // `file_type` does not follow links: a symlinked directory is not searched.
            if entry.depth() != 1 || !entry.file_type().is_some_and(|kind| kind.is_dir()) {
                continue;
            }
            let Some(name) = entry.file_name().to_str() else {
                continue;
            };
            if !self.settings.settings.excludes(&join(&base_of_start, &join(dir, name))) {
                names.push(name.to_string());
            }
        }
        Some(names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> settings::Loaded {
        settings::Loaded {
            settings: apcheck::config::Settings::default(),
            base: PathBuf::new(),
        }
    }

    fn touch(root: &Path, file: &str) {
        let path = root.join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "{}").unwrap();
    }

    #[test]
    fn a_directory_with_plugin_json_is_one_root_even_with_roots_below() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "plugin.json");
        touch(dir.path(), "nested/plugin.json");
        let roots = roots_named_by(dir.path(), &defaults()).unwrap();
        assert_eq!(roots.len(), 1);
        assert_eq!(roots[0].0, dir.path(), "the directory itself, not a root below it");
    }

    #[test]
    fn a_collection_lists_roots_in_order_skipping_hidden_and_node_modules() {
        let dir = tempfile::tempdir().unwrap();
        for file in [
            "plugins/b/plugin.json",
            "plugins/a/plugin.json",
            "plugins/a/inner/plugin.json",
            "top/plugin.json",
            ".claude-plugin/plugin.json",
            "x/node_modules/p/plugin.json",
        ] {
            touch(dir.path(), file);
        }
        let roots = roots_named_by(dir.path(), &defaults()).unwrap();
        let base = dir.path().display().to_string();
        let names: Vec<String> = roots.iter().map(|r| r.1.replace(&base, "<base>")).collect();
        assert_eq!(names, ["<base>/plugins/a", "<base>/plugins/b", "<base>/top"]);
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_directories_are_not_searched() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "real/plugin.json");
        std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("alias")).unwrap();
        std::os::unix::fs::symlink(dir.path(), dir.path().join("real-loop")).unwrap();
        let roots = roots_named_by(dir.path(), &defaults()).unwrap();
        let names: Vec<&str> = roots.iter().map(|r| r.1.rsplit('/').next().unwrap()).collect();
        assert_eq!(names, ["real"]);
    }

    #[test]
    fn a_directory_without_any_manifest_is_one_root_to_reject() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "skills/a/SKILL.md");
        let roots = roots_named_by(dir.path(), &defaults()).unwrap();
        assert_eq!(roots.len(), 1);
        assert_eq!(roots[0].0, dir.path(), "the directory itself, not a root below it");
    }

    #[test]
    fn a_missing_path_or_a_file_is_a_usage_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(roots_named_by(&dir.path().join("nope"), &defaults()).is_err());
        touch(dir.path(), "plugin.json");
        assert!(roots_named_by(&dir.path().join("plugin.json"), &defaults()).is_err());
    }
}
