//! A scenario's poster from its text: what `kpg share` and the page's Share dialog both call,
//! so the same YAML and instant give the same drawing, byte for byte.

use kpg_core::model::{Cluster, Millis, Scenario};
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
    let title = title(&loaded.scenario);
    let mut sim = Simulation::new(loaded.scenario).map_err(|e| e.to_string())?;
    sim.run_until(at);
    Ok(Figure::of(&snapshot::take(&sim), &title))
}

/// A scenario's title: its cluster's name when it names one, else its first NodePool or
/// workload (what `kpg share --iframe` titles a frame with).
pub fn title(scenario: &Scenario) -> String {
    if scenario.cluster.name != Cluster::default().name {
        return format!("cluster {}", scenario.cluster.name);
    }
    if let Some(pool) = scenario.node_pools.first() {
        return format!("NodePool {}", pool.name);
    }
    if let Some(w) = scenario.workloads.first() {
        return format!("{} {}", w.kind.as_str(), w.name);
    }
    String::from("a scenario")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../tests/labs/{name}.yaml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn a_scenario_is_drawn_at_the_instant_asked() {
        let yaml = lab("seed002-limits");
        let start = figure_at(&yaml, 0).unwrap();
        let later = figure_at(&yaml, 300_000).unwrap();
        assert_eq!(start.at_ms, 0);
        assert_eq!(later.at_ms, 300_000);
        // The platform pool has launched its four nodes by 5m; at 0s only the fixed two run.
        assert_eq!((start.nodes, later.nodes), (2, 6));
        assert_eq!(later.title, "cluster mydev");
        assert_eq!(figure_at(&yaml, 300_000).unwrap(), later, "deterministic");
    }

    #[test]
    fn a_scenario_with_errors_is_not_drawn() {
        let err = figure_at("apiVersion: karpenter.sh/v1\nkind: NodePool\nspec: 3\n", 0);
        assert!(err.is_err(), "{err:?}");
    }
}
