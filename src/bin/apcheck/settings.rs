//! The configuration at the edge: finds `apcheck.toml` (or `pyproject.toml`
//! with `[tool.apcheck]`) by walking up from a checked path, unless `--config`
//! names one, reads it, and merges the rule flags into it
//! (`apcheck::config::Settings` does the parsing and the merging).

use std::fs;
use std::path::{Path, PathBuf};

use apcheck::config::{ConfigError, FILE_NAMES, Settings};

/// The flags every command that checks packages shares.
#[derive(clap::Args, Clone, Default)]
pub struct ConfigArgs {
    /// Use this configuration file instead of the apcheck.toml or pyproject.toml found above each path.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Show only these rules, by code or prefix (`AP2,AP314`); replaces the configuration's `select`.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub select: Vec<String>,
    /// Show these rules too, by code or prefix.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub extend_select: Vec<String>,
    /// Hide these rules, by code or prefix.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Set a rule's severity: `AP205=error`, `AP314=off`.
    #[arg(long, value_name = "CODE=LEVEL")]
    pub severity: Vec<String>,
    /// The reverse-domain namespace under `extensions` that the unsafe fix moves a vendor `hooks` key to (`com.example.client`).
    #[arg(long, value_name = "NAMESPACE")]
    pub extensions_namespace: Option<String>,
}

/// Why the settings for a path could not be loaded: exit 2 at the CLI; the
/// language server shows it, underlining a configuration error in its file.
#[derive(Debug)]
pub enum LoadError {
    /// A file that could not be read, or a `--config` without `[tool.apcheck]`.
    Unusable(String),
    /// A configuration (or flag) that does not parse or names no rule, at its place.
    Invalid(ConfigError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Unusable(message) => f.write_str(message),
            LoadError::Invalid(error) => error.fmt(f),
        }
    }
}

/// Settings for one checked path, and the directory its globs are relative to.
pub struct Loaded {
    pub settings: Settings,
    /// The configuration file's directory; the working directory without one.
    pub base: PathBuf,
}

impl Loaded {
    /// The configuration's `baseline`, relative to the configuration's directory.
    pub fn baseline_file(&self) -> Option<PathBuf> {
        self.settings
            .baseline
            .as_ref()
            .map(|baseline| self.base.join(&baseline.value))
    }

    /// `path` relative to the configuration's directory, `/`-separated, for its globs.
    pub fn relative(&self, path: &Path) -> String {
        let absolute = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let relative = absolute.strip_prefix(&self.base).unwrap_or(&absolute);
        relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The settings for `path`: the configuration named or found, with the flags on top.
pub fn load(path: &Path, args: &ConfigArgs) -> Result<Loaded, LoadError> {
    let found = match &args.config {
        Some(file) => Some(
            read(file)?
                .ok_or_else(|| LoadError::Unusable(format!("{}: has no [tool.apcheck] table", file.display())))?,
        ),
        None => find_above(path)?,
    };
    let (settings, base) = match found {
        Some((settings, file)) => {
            let file =
                fs::canonicalize(&file).map_err(|error| LoadError::Unusable(format!("{}: {error}", file.display())))?;
            (settings, file.parent().map(Path::to_path_buf).unwrap_or_default())
        }
        None => (
            Settings::default(),
            std::env::current_dir().and_then(fs::canonicalize).unwrap_or_default(),
        ),
    };
    let settings = settings
        .with_flags(&args.select, &args.extend_select, &args.ignore, &args.severity)
        .and_then(|settings| settings.with_extensions_namespace(args.extensions_namespace.as_deref()))
        .map_err(LoadError::Invalid)?;
    Ok(Loaded { settings, base })
}

/// The nearest configuration in `path`'s directory or above it.
fn find_above(path: &Path) -> Result<Option<(Settings, PathBuf)>, LoadError> {
    let start = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    for dir in start.ancestors() {
        for name in FILE_NAMES {
            let candidate = dir.join(name);
            if candidate.is_file()
                && let Some(found) = read(&candidate)?
            {
                return Ok(Some(found));
            }
        }
    }
    Ok(None)
}

/// The settings in `file`, or `None` for a pyproject.toml without `[tool.apcheck]`.
fn read(file: &Path) -> Result<Option<(Settings, PathBuf)>, LoadError> {
    // Never a FIFO or device named like a configuration file: it could block the read forever.
    let text = apcheck::disk::read_regular_text(file)
        .map_err(|error| LoadError::Unusable(format!("{}: {error}", file.display())))?;
    let settings = Settings::parse(&file.display().to_string(), &text).map_err(LoadError::Invalid)?;
    Ok(settings.map(|settings| (settings, file.to_path_buf())))
}
