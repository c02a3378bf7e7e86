//! kube-scheduler's DefaultPreemption (its PostFilter): a pending pod that fits on no node
//! looks for a node where removing pods of lower priority makes it fit, deletes them (with
//! their grace period) and waits for their room, nominated to that node
//! (`status.nominatedNodeName`). Karpenter leaves such a pod alone; the victims' replacements
//! are what it provisions for.
//!
//! Follows `pkg/scheduler/framework/preemption/preemption.go` (`Preempt`, `findCandidates`,
//! `DryRunPreemption`, `SelectCandidate`, `pickOneNodeForPreemption`, `prepareCandidate`)
//! and `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go`
//! (`PodEligibleToPreemptOthers`, `SelectVictimsOnNode`, `filterPodsWithPDBViolation`) in
//! kubernetes/kubernetes. Every node is dry-run (upstream checks at least 100 nodes or 10%,
//! from a random offset: all of them in clusters of up to 100 nodes). DaemonSet pods are
//! never victims here (upstream may preempt them; their controller would recreate them on
//! the same node, which the playground does not model).
//!
//! It deletes pods and nominates the preemptor; it never binds (the next scheduling round
//! does, once the room is free) and never touches a node.

use super::kube_scheduler::NodeCache;
use super::*;
use crate::priority::PreemptionPolicy;
use crate::scheduling::kube::Rejection;

/// What the PostFilter says after the Filter part of the message.
pub(super) enum PostFilter {
    /// `preemption: ...`: why the pod preempted nothing.
    Message(String),
    /// Victims were chosen and the pod nominated: the message is the filters' alone.
    Nominated,
    /// No PostFilter ran (there is no node at all: `ErrNoNodesAvailable`).
    NotRun,
}

/// The victims on one candidate node (`extenderv1.Victims`), most important first.
struct Candidate {
    /// Index into the node cache.
    node: usize,
    victims: Vec<usize>,
    pdb_violations: usize,
}

impl Simulation {
    /// The room that pods nominated to a node hold there for pod `p`: those of at least its
    /// priority, still pending (by cache index).
    pub(super) fn nominated_room(&self, p: usize, cache: &NodeCache) -> Vec<(usize, Resources)> {
        let pods = &self.cluster.pods;
        let priority = pods[p].spec.priority;
        let mut held: Vec<(usize, Resources)> = Vec::new();
        for &q in &cache.nominated {
            let Some(n) = pods[q].nominated_node.filter(|_| pods[q].is_pending()) else {
                continue;
            };
            if q == p || pods[q].spec.priority < priority {
                continue;
            }
            if let Some(i) = cache.nodes.iter().position(|k| k.id == n) {
                match held.iter_mut().find(|(j, _)| *j == i) {
                    Some((_, r)) => *r += pods[q].requests,
                    None => held.push((i, pods[q].requests)),
                }
            }
        }
        held
    }

    /// DefaultPreemption's PostFilter for pod `p`, which fit on no node (`results`: each
    /// cache node's filter result).
    pub(super) fn post_filter(
        &mut self,
        p: usize,
        cache: &NodeCache,
        results: &[Result<(), Rejection>],
    ) -> PostFilter {
        if let Some(why) = self.not_eligible(p, cache, results) {
            return PostFilter::Message(why.into());
        }
        let all = cache.nodes.len();
        let potential: Vec<usize> = (0..all)
            .filter(|&i| {
                results
                    .get(i)
                    .is_some_and(|r| r.as_ref().is_err_and(Rejection::resolvable_by_preemption))
            })
            .collect();
        let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        if !potential.is_empty() {
            let priority = self.cluster.pods[p].spec.priority;
            let any_lower = priority > cache.lowest_victim_priority
                && potential.iter().any(|&i| {
                    cache.bound[i]
                        .iter()
                        .any(|&q| self.may_preempt(q, priority))
                });
            if any_lower {
                let mut scratch = Scratch {
                    nodes: cache.nodes.clone(),
                    bound: cache.bound.clone(),
                    anti_affine: cache.anti_affine.clone(),
                };
                let allowed = self.cluster.pdb_allowances();
                for &i in &potential {
                    match self.select_victims(p, i, &mut scratch, &allowed) {
                        Ok(c) => candidates.push(c),
                        Err(reasons) => {
                            for r in reasons {
                                *statuses.entry(r).or_insert(0) += 1;
                            }
                        }
                    }
                }
            } else {
                *statuses
                    .entry("No preemption victims found for incoming pod".into())
                    .or_insert(0) += potential.len();
            }
        }
        // Candidates that violate no PDB come first (`DryRunPreemption`).
        candidates.sort_by_key(|c| c.pdb_violations > 0);
        let Some(best) = self.pick_one(&candidates) else {
            let unhelpful = all - potential.len();
            if unhelpful > 0 {
                *statuses
                    .entry("Preemption is not helpful for scheduling".into())
                    .or_insert(0) += unhelpful;
            }
            let mut parts: Vec<String> = statuses
                .into_iter()
                .map(|(reason, count)| format!("{count} {reason}"))
                .collect();
            parts.sort();
            return PostFilter::Message(format!(
                "0/{all} nodes are available: {}.",
                parts.join(", ")
            ));
        };
        let node = cache.nodes[candidates[best].node].id;
        let victims = core::mem::take(&mut candidates[best].victims);
        self.prepare_candidate(p, node, &victims);
        PostFilter::Nominated
    }

    /// `PodEligibleToPreemptOthers`: a pod whose policy is `Never` never preempts, and a pod
    /// whose nominated node still has a pod terminating for it waits.
    fn not_eligible(
        &self,
        p: usize,
        cache: &NodeCache,
        results: &[Result<(), Rejection>],
    ) -> Option<&'static str> {
        let pod = &self.cluster.pods[p];
        if pod.spec.preemption_policy == PreemptionPolicy::Never {
            return Some("not eligible due to preemptionPolicy=Never.");
        }
        let n = pod.nominated_node?;
        let i = cache.nodes.iter().position(|k| k.id == n)?;
        // A nominated node the filters find unresolvable is looked at afresh.
        if results
            .get(i)
            .is_some_and(|r| r.as_ref().is_err_and(|r| !r.resolvable_by_preemption()))
        {
            return None;
        }
        let terminating = cache.bound[i].iter().any(|&q| {
            let victim = &self.cluster.pods[q];
            victim.spec.priority < pod.spec.priority && victim.preempted_until.is_some()
        });
        terminating.then_some("not eligible due to a terminating pod on the nominated node.")
    }

    /// Whether pod `q` on a node may be a victim of a pod of `priority`
    /// (`isPreemptionAllowed`).
    fn may_preempt(&self, q: usize, priority: i32) -> bool {
        let victim = &self.cluster.pods[q];
        victim.spec.priority < priority && !victim.is_daemon()
    }

    /// `SelectVictimsOnNode`: remove every lower-priority pod; if the preemptor then fits,
    /// put them back most important first, PDB-violating ones first, keeping as victims
    /// those without which it no longer fits. `Err`: the node's status reasons.
    fn select_victims(
        &self,
        p: usize,
        i: usize,
        scratch: &mut Scratch,
        allowed: &[u32],
    ) -> Result<Candidate, Vec<String>> {
        let pods = &self.cluster.pods;
        let pod = &pods[p];
        let mut potential: Vec<usize> = scratch.bound[i]
            .iter()
            .copied()
            .filter(|&q| self.may_preempt(q, pod.spec.priority))
            .collect();
        if potential.is_empty() {
            return Err(alloc::vec![
                "No preemption victims found for incoming pod".into()
            ]);
        }
        let saved = (
            scratch.nodes[i].clone(),
            scratch.bound[i].clone(),
            scratch.anti_affine[i].clone(),
        );
        for &q in &potential {
            scratch.remove(pods, i, q);
        }
        let outcome = (|| {
            if let Err(r) = scratch.fits(self, pod, i) {
                return Err(r.phrases());
            }
            // Most important first: higher priority, then started earlier
            // (`util.MoreImportantPod`).
            potential.sort_by(|&a, &b| {
                pods[b]
                    .spec
                    .priority
                    .cmp(&pods[a].spec.priority)
                    .then(start_time(&pods[a]).cmp(&start_time(&pods[b])))
                    .then(pods[a].seq.cmp(&pods[b].seq))
            });
            let (violating, non_violating) = self.split_by_pdb(&potential, allowed);
            let mut victims = Vec::new();
            let mut pdb_violations = 0;
            for (q, violates) in violating
                .iter()
                .map(|&q| (q, true))
                .chain(non_violating.iter().map(|&q| (q, false)))
            {
                scratch.add(pods, i, q);
                if scratch.fits(self, pod, i).is_err() {
                    scratch.remove(pods, i, q);
                    victims.push(q);
                    if violates {
                        pdb_violations += 1;
                    }
                }
            }
            if !violating.is_empty() && !non_violating.is_empty() {
                victims.sort_by(|&a, &b| {
                    pods[b]
                        .spec
                        .priority
                        .cmp(&pods[a].spec.priority)
                        .then(start_time(&pods[a]).cmp(&start_time(&pods[b])))
                        .then(pods[a].seq.cmp(&pods[b].seq))
                });
            }
            Ok(Candidate {
                node: i,
                victims,
                pdb_violations,
            })
        })();
        (scratch.nodes[i], scratch.bound[i], scratch.anti_affine[i]) = saved;
        outcome
    }

    /// `filterPodsWithPDBViolation`: in order, each pod takes one disruption from every PDB
    /// that selects it (a PDB with an empty selector selects nothing); a pod that takes one
    /// a PDB does not have violates it.
    fn split_by_pdb(&self, pods: &[usize], allowed: &[u32]) -> (Vec<usize>, Vec<usize>) {
        let mut left: Vec<i64> = allowed.iter().map(|&a| i64::from(a)).collect();
        let (mut violating, mut non_violating) = (Vec::new(), Vec::new());
        for &q in pods {
            let mut violated = false;
            if !self.cluster.pods[q].labels.is_empty() {
                for (i, budget) in left.iter_mut().enumerate() {
                    if self.cluster.pdbs[i].selector.is_empty() || !self.cluster.pdb_selects(i, q) {
                        continue;
                    }
                    *budget -= 1;
                    if *budget < 0 {
                        violated = true;
                    }
                }
            }
            if violated {
                violating.push(q);
            } else {
                non_violating.push(q);
            }
        }
        (violating, non_violating)
    }

    /// `pickOneNodeForPreemption`: fewest PDB violations, then the lowest highest-priority
    /// victim, the smallest sum of priorities, the fewest victims, the latest start among the
    /// highest-priority victims, then the first.
    fn pick_one(&self, candidates: &[Candidate]) -> Option<usize> {
        let pods = &self.cluster.pods;
        let scores: [&dyn Fn(&Candidate) -> i64; 5] = [
            &|c| -(c.pdb_violations as i64),
            &|c| {
                -c.victims
                    .first()
                    .map_or(0, |&q| i64::from(pods[q].spec.priority))
            },
            &|c| {
                -c.victims
                    .iter()
                    .map(|&q| i64::from(pods[q].spec.priority) + i64::from(i32::MAX) + 1)
                    .sum::<i64>()
            },
            &|c| -(c.victims.len() as i64),
            &|c| {
                // The earliest start among the highest-priority victims; later is better.
                let top = c.victims.first().map(|&q| pods[q].spec.priority);
                c.victims
                    .iter()
                    .filter(|&&q| Some(pods[q].spec.priority) == top)
                    .map(|&q| start_time(&pods[q]) as i64)
                    .min()
                    .unwrap_or(i64::MIN)
            },
        ];
        let mut left: Vec<usize> = (0..candidates.len()).collect();
        for score in scores {
            let best = left.iter().map(|&c| score(&candidates[c])).max()?;
            left.retain(|&c| score(&candidates[c]) == best);
            if left.len() == 1 {
                break;
            }
        }
        left.first().copied()
    }

    /// `prepareCandidate`: delete each victim not already terminating (a `Preempted` event
    /// on it), clear the nominations of lower-priority pods to the node, and nominate the
    /// preemptor there.
    fn prepare_candidate(&mut self, p: usize, n: usize, victims: &[usize]) {
        let by = event::PodRef::of(&self.cluster.pods[p]);
        let node = self.cluster.nodes[n].name.clone();
        for &q in victims {
            if self.cluster.pods[q].preempted_until.is_some() {
                continue;
            }
            let seconds = self.cluster.pods[q]
                .spec
                .termination_grace_seconds
                .unwrap_or(30)
                .max(0) as u64;
            let until = self.now + seconds * 1000;
            self.cluster.pods[q].preempted_until = Some(until);
            self.note_pod_event(q);
            self.event(EventKind::Preempted {
                pod: event::PodRef::of(&self.cluster.pods[q]),
                by: by.clone(),
                node: node.clone(),
            });
            self.schedule(until, Action::PreemptedGone(q));
            // A ReplicaSet counts a terminating pod as gone and replaces it at once; a
            // StatefulSet (same identity) and a Job replace it once it is gone.
            let w = self.cluster.pods[q].workload;
            if matches!(
                self.cluster.workloads[w].kind,
                WorkloadKind::Deployment | WorkloadKind::ReplicaSet
            ) {
                self.replace_pod(w);
            }
        }
        let priority = self.cluster.pods[p].spec.priority;
        let lower: Vec<usize> = self
            .cluster
            .pending_pods()
            .filter(|&q| {
                self.cluster.pods[q].nominated_node == Some(n)
                    && self.cluster.pods[q].spec.priority < priority
            })
            .collect();
        for q in lower {
            self.cluster.pods[q].nominated_node = None;
        }
        self.cluster.pods[p].nominated_node = Some(n);
        self.cluster.version += 1;
    }

    /// A preempted pod's grace period is over: it is gone, and its room with it.
    pub(super) fn preempted_gone(&mut self, q: usize) {
        if self.cluster.pods[q].deleted {
            return;
        }
        let w = self.cluster.pods[q].workload;
        self.delete_pod(q);
        if matches!(
            self.cluster.workloads[w].kind,
            WorkloadKind::StatefulSet | WorkloadKind::Job
        ) {
            self.replace_pod(w);
        }
    }
}

/// When a pod started (`GetPodStartTime`); one not started yet counts as starting last.
fn start_time(pod: &Pod) -> u64 {
    pod.started_at.unwrap_or(u64::MAX)
}

/// kube-scheduler's node cache, copied for one preemption's dry runs: a candidate node's
/// pods are taken off and put back here, never in the round's own cache.
struct Scratch {
    nodes: Vec<KubeNode>,
    bound: Vec<Vec<usize>>,
    anti_affine: Vec<Vec<usize>>,
}

impl Scratch {
    fn remove(&mut self, pods: &[Pod], i: usize, q: usize) {
        self.nodes[i].requested = self.nodes[i].requested.saturating_sub(&pods[q].requests);
        self.bound[i].retain(|&x| x != q);
        self.anti_affine[i].retain(|&x| x != q);
        self.ports(pods, i);
    }

    fn add(&mut self, pods: &[Pod], i: usize, q: usize) {
        self.nodes[i].requested += pods[q].requests;
        self.bound[i].push(q);
        if !pods[q].spec.pod_anti_affinity.is_empty() {
            self.anti_affine[i].push(q);
        }
        self.ports(pods, i);
    }

    fn ports(&mut self, pods: &[Pod], i: usize) {
        self.nodes[i].host_ports = self.bound[i]
            .iter()
            .flat_map(|&q| pod::host_ports(&pods[q].spec))
            .collect();
    }

    /// The filters for `pod` on node `i` as the scratch has it (PreFilter included, so
    /// spread and anti-affinity count the pods taken off).
    fn fits(&self, sim: &Simulation, pod: &Pod, i: usize) -> Result<(), Rejection> {
        kube::Cluster {
            nodes: &self.nodes,
            pods: &sim.cluster.pods,
            bound: &self.bound,
            anti_affine: &self.anti_affine,
            namespaces: &sim.cluster.namespaces,
        }
        .filter(pod, i)
    }
}
