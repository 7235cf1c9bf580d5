// PLACEHOLDER (foundation commit): replaced by the package-check work.
use crate::diag::Diagnostic;
use crate::report::{SkillsSection, SkillsState};
use crate::tree::Tree;
pub fn discover_skills(_tree: &Tree, _diagnostics: &mut Vec<Diagnostic>) -> SkillsSection {
    SkillsSection {
        state: SkillsState::Absent,
        entries: Vec::new(),
    }
}
pub static RULES: &[&crate::rules::Rule] = &[];
