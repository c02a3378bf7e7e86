//! A scenario's poster from its text: what `kpg share` and the page's Share dialog both call,
//! so the same YAML and instant give the same drawing, byte for byte.

use kpg_core::model::Millis;
use kpg_core::sim::Simulation;

use crate::poster::Figure;
use crate::snapshot;

/// The poster's figure of the scenario in `yaml` at `at`: read, started and run to `at` as
/// `kpg simulate` does, then drawn as the page's cluster view shows it. `Err` says why the
/// scenario cannot be drawn (its first error, or the engine's refusal).
pub fn figure_at(yaml: &str, at: Millis) -> Result<Figure, String> {
    let loaded = kpg_manifests::load(yaml);
    if let Some(d) = loaded.diagnostics.iter().find(|d| d.is_error()) {
        return Err(d.to_string());
    }
    let mut sim = Simulation::new(loaded.scenario).map_err(|e| e.to_string())?;
    sim.run_until(at);
    Ok(Figure::of(&snapshot::take(&sim), &title(yaml)))
}

/// A scenario's title: its first document's kind and name (`NodePool/default`), as the
/// page's first tab is titled.
pub fn title(yaml: &str) -> String {
    let spans = kpg_manifests::document_spans(yaml);
    let Some(label) = spans.iter().find_map(|(_, _, l)| l.clone()) else {
        return String::from("Karpenter Playground");
    };
    let mut parts = label.split('/');
    let kind = parts.next().unwrap_or_default();
    match parts.next_back() {
        Some(name) => format!("{kind}/{name}"),
        None => kind.to_string(),
    }
}
