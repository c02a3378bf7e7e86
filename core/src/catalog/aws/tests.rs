use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::catalog::{OfferingSpec, resolve};
use crate::requirements::Operator;

const CSV: &str = include_str!("../../../data/instance-types.csv");
const EXTRACT: &str = include_str!("../../../data/regional-prices-extract.csv");
const ACCELERATORS: &str = include_str!("../../../data/accelerators.csv");

fn node_class(family: AmiFamily) -> NodeClass {
    NodeClass {
        name: "default".into(),
        ami_family: family,
        ami_alias: None,
        kubelet: KubeletConfig::default(),
        root_volume_bytes: None,
        instance_store_raid0: false,
        subnet_zones: Vec::new(),
        capacity_reservation_terms: Vec::new(),
        auto_mode: None,
    }
}

fn zones(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// The CSV as (header index, rows of cells).
fn csv_rows() -> (Vec<&'static str>, Vec<Vec<&'static str>>) {
    let mut lines = CSV.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    (header, lines.map(|l| l.split(',').collect()).collect())
}

fn col(header: &[&str], name: &str) -> usize {
    header.iter().position(|h| *h == name).unwrap()
}

fn named<'a>(its: &'a [InstanceType], name: &str) -> &'a InstanceType {
    its.iter().find(|it| it.name == name).unwrap()
}

fn offering(it: &InstanceType, zone: &str, ct: CapacityType) -> Offering {
    it.offerings
        .iter()
        .find(|o| o.zone == zone && o.capacity_type == ct)
        .cloned()
        .unwrap()
}

fn zone_values(it: &InstanceType) -> Vec<String> {
    it.requirements
        .get(wellknown::ZONE)
        .unwrap()
        .values()
        .to_vec()
}

fn offered_zones(it: &InstanceType) -> Vec<&str> {
    let mut z: Vec<&str> = it.offerings.iter().map(|o| o.zone.as_str()).collect();
    z.dedup();
    z
}

#[test]
fn oracle_allocatable_matches_every_row_for_al2023() {
    let (header, rows) = csv_rows();
    let (c_name, c_cpu, c_mem, c_pods, c_eph) = (
        col(&header, "name"),
        col(&header, "alloc_cpu_m"),
        col(&header, "alloc_memory_mib"),
        col(&header, "max_pods"),
        col(&header, "ephemeral_storage_gi"),
    );
    let its = instance_types("us-east-1", &[], &node_class(AmiFamily::Al2023)).unwrap();
    assert_eq!(rows.len(), 1363);
    assert_eq!(its.len(), rows.len());
    let mut matched = 0;
    let mut mismatches = Vec::new();
    for (row, it) in rows.iter().zip(&its) {
        assert_eq!(it.name, row[c_name]);
        let a = &it.allocatable;
        let want = (
            row[c_cpu].parse::<i64>().unwrap(),
            row[c_mem].parse::<i64>().unwrap() * MIB,
            row[c_pods].parse::<i64>().unwrap(),
            row[c_eph].parse::<i64>().unwrap() * GIB,
        );
        let got = (
            a.cpu(),
            a.memory(),
            a.pods(),
            a.get(ResourceName::EphemeralStorage),
        );
        if got == want {
            matched += 1;
        } else {
            mismatches.push((it.name.clone(), got, want));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} rows differ, first: {:?}",
        mismatches.len(),
        rows.len(),
        &mismatches[..3.min(mismatches.len())]
    );
    assert_eq!(matched, 1363);
    // Spot checks of the documented worked examples.
    let a1 = named(&its, "a1.large");
    assert_eq!(a1.allocatable.memory(), 3055 * MIB);
    assert_eq!(a1.capacity.memory(), (4096 - 64 - 303) * MIB);
    assert_eq!(named(&its, "m7i.48xlarge").allocatable.cpu(), 191_450);
    assert_eq!(
        named(&its, "m7i.48xlarge").allocatable.memory(),
        718_987 * MIB
    );
    assert_eq!(named(&its, "t3.micro").allocatable.memory(), 548 * MIB);
}

#[test]
fn all_types_present_and_looked_up_by_name() {
    assert_eq!(entries().len(), 1363);
    let mut names: Vec<&str> = entries().iter().map(|e| e.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 1363);
    for e in entries() {
        assert_eq!(lookup(e.name), Some(e));
    }
    assert_eq!(lookup("t3.nonexistent"), None);
    assert_eq!(lookup(""), None);
    for region in REGIONS {
        let its = instance_types(region, &[], &node_class(AmiFamily::Al2023)).unwrap();
        assert_eq!(its.len(), 1363);
    }
}

#[test]
fn regions_and_zones() {
    assert_eq!(
        region_zones("ap-northeast-2").unwrap(),
        zones(&[
            "ap-northeast-2a",
            "ap-northeast-2b",
            "ap-northeast-2c",
            "ap-northeast-2d"
        ])
    );
    assert_eq!(
        region_zones("us-east-1").unwrap(),
        zones(&[
            "us-east-1a",
            "us-east-1b",
            "us-east-1c",
            "us-east-1d",
            "us-east-1e",
            "us-east-1f"
        ])
    );
    assert_eq!(
        region_zones("us-west-2").unwrap(),
        zones(&["us-west-2a", "us-west-2b", "us-west-2c", "us-west-2d"])
    );
    assert_eq!(region_zones("eu-west-1"), None);

    let nc = node_class(AmiFamily::Al2023);
    assert_eq!(
        instance_types("eu-west-1", &[], &nc).unwrap_err(),
        CatalogError::UnknownRegion("eu-west-1".into())
    );
    for bad in [
        "ap-northeast-2e",
        "us-east-1a",
        "ap-northeast-2",
        "ap-northeast-2ab",
    ] {
        assert_eq!(
            instance_types("ap-northeast-2", &zones(&[bad]), &nc).unwrap_err(),
            CatalogError::UnknownZone {
                region: "ap-northeast-2".into(),
                zone: bad.into()
            }
        );
    }
    assert_eq!(
        instance_type_named("ap-northeast-2", &[], &nc, "t3.tiny").unwrap_err(),
        CatalogError::UnknownInstanceType("t3.tiny".into())
    );
}

#[test]
fn seed_types_in_seoul() {
    let nc = node_class(AmiFamily::Al2023);
    let its = instance_types("ap-northeast-2", &[], &nc).unwrap();

    let t3 = named(&its, "t3.small");
    assert_eq!(t3.allocatable.cpu(), 1930);
    assert_eq!(t3.allocatable.memory(), 1418 * MIB);
    assert_eq!(t3.allocatable.pods(), 11);
    assert_eq!(
        offered_zones(t3),
        [
            "ap-northeast-2a",
            "ap-northeast-2b",
            "ap-northeast-2c",
            "ap-northeast-2d"
        ]
    );
    assert_eq!(t3.offerings.len(), 8);
    let od = offering(t3, "ap-northeast-2c", CapacityType::OnDemand);
    assert_eq!(
        (od.price, od.price_source, od.available),
        (26_000, PriceSource::Regional, true)
    );
    let spot = offering(t3, "ap-northeast-2c", CapacityType::Spot);
    assert_eq!(
        (spot.price, spot.price_source, spot.available),
        (7_800, PriceSource::SpotAdvisor, true)
    );
    assert_eq!(t3.cheapest_available().unwrap().price, 7_800);

    let c7i = named(&its, "c7i-flex.large");
    assert_eq!(offered_zones(c7i), ["ap-northeast-2b", "ap-northeast-2d"]);
    assert_eq!(zone_values(c7i), ["ap-northeast-2b", "ap-northeast-2d"]);
    assert_eq!(
        offering(c7i, "ap-northeast-2b", CapacityType::OnDemand).price,
        95_760
    );
    // 76 % Spot Advisor saving: 95_760 × 0.24 = 22_982.4 → 22_982.
    assert_eq!(
        offering(c7i, "ap-northeast-2d", CapacityType::Spot).price,
        22_982
    );
    assert_eq!(c7i.labels[keys::CAPABILITY_FLEX], "true");
    assert_eq!(c7i.allocatable.memory(), 3114 * MIB);
    assert_eq!(c7i.capacity.get(ResourceName::PodEni), 3);

    let m7i = named(&its, "m7i-flex.large");
    assert_eq!(
        offering(m7i, "ap-northeast-2a", CapacityType::OnDemand).price,
        117_710
    );
    assert_eq!(m7i.allocatable.memory(), 6903 * MIB);

    // With subnets in a/b/c only, c7i-flex is offered in b alone (the seed text's "only in 2b").
    let abc = zones(&["ap-northeast-2a", "ap-northeast-2b", "ap-northeast-2c"]);
    let c7i = instance_type_named("ap-northeast-2", &abc, &nc, "c7i-flex.large").unwrap();
    assert_eq!(offered_zones(&c7i), ["ap-northeast-2b"]);
    // Node class subnet zones narrow further.
    let mut pinned = nc.clone();
    pinned.subnet_zones = zones(&["ap-northeast-2a", "ap-northeast-2d"]);
    let c7i = instance_type_named("ap-northeast-2", &abc, &pinned, "c7i-flex.large").unwrap();
    assert!(c7i.offerings.is_empty());
    assert!(zone_values(&c7i).is_empty());
    let t3 = instance_type_named("ap-northeast-2", &abc, &pinned, "t3.small").unwrap();
    assert_eq!(offered_zones(&t3), ["ap-northeast-2a"]);
}

#[test]
fn types_not_offered_still_listed_without_offerings() {
    let its = instance_types("ap-northeast-2", &[], &node_class(AmiFamily::Al2023)).unwrap();
    let c6a = named(&its, "c6a.large");
    assert!(c6a.offerings.is_empty());
    assert!(c6a.cheapest_available().is_none());
    let r = c6a.requirements.get(wellknown::ZONE).unwrap();
    assert_eq!(r.operator(), Operator::DoesNotExist);
    let offered = its.iter().filter(|it| !it.offerings.is_empty()).count();
    assert_eq!(offered, 749);
}

#[test]
fn regional_price_fallback_and_default_spot_saving() {
    let nc = node_class(AmiFamily::Al2023);
    // c5.metal has no us-west-2 price in the data: us-east-1's $4.08 is used.
    let it = instance_type_named("us-west-2", &[], &nc, "c5.metal").unwrap();
    let od = offering(&it, "us-west-2a", CapacityType::OnDemand);
    assert_eq!(
        (od.price, od.price_source, od.available),
        (4_080_000, PriceSource::UsEast1Fallback, true)
    );
    let spot = offering(&it, "us-west-2a", CapacityType::Spot);
    assert_eq!(
        (spot.price, spot.price_source),
        (1_428_000, PriceSource::SpotDefault)
    ); // × 0.35

    // t3.small has its own us-west-2 price (equal to us-east-1's).
    let it = instance_type_named("us-west-2", &[], &nc, "t3.small").unwrap();
    let od = offering(&it, "us-west-2b", CapacityType::OnDemand);
    assert_eq!((od.price, od.price_source), (20_800, PriceSource::Regional));
    assert_eq!(offering(&it, "us-west-2b", CapacityType::Spot).price, 7_280);

    // In Seoul a type without Spot Advisor data uses the 68 % median.
    let it = instance_type_named("ap-northeast-2", &[], &nc, "c7i.large").unwrap();
    let e = lookup("c7i.large").unwrap();
    if e.spot_saving_pct_apne2.is_none() {
        assert_eq!(
            offering(&it, "ap-northeast-2a", CapacityType::Spot).price_source,
            PriceSource::SpotDefault
        );
    }
    // us-east-1 is the fallback's source, so its own prices are regional.
    let it = instance_type_named("us-east-1", &[], &nc, "p4d.24xlarge").unwrap();
    let od = offering(&it, "us-east-1b", CapacityType::OnDemand);
    assert_eq!(
        (od.price, od.price_source),
        (21_957_642, PriceSource::Regional)
    );
    assert_eq!(
        offering(&it, "us-east-1b", CapacityType::Spot).price,
        7_465_598
    ); // 21_957_642 × 0.34 = 7_465_598.28
}

#[test]
fn types_without_any_price_are_unavailable() {
    let nc = node_class(AmiFamily::Al2023);
    let it = instance_type_named("ap-northeast-2", &[], &nc, "x8aedz.large").unwrap();
    assert_eq!(it.offerings.len(), 2);
    assert!(it.offerings.iter().all(|o| !o.available && o.price == 0));
    assert!(zone_values(&it).is_empty());
    assert!(
        it.requirements
            .get(wellknown::CAPACITY_TYPE)
            .unwrap()
            .values()
            .is_empty()
    );
    let unpriced = instance_types("us-east-1", &[], &nc)
        .unwrap()
        .iter()
        .filter(|it| !it.offerings.is_empty() && it.cheapest_available().is_none())
        .count();
    // 18 types lack a us-east-1 price; the hpc* ones are offered nowhere in the data.
    assert!(unpriced <= 18);
}

#[test]
fn max_pods_changes_pods_but_not_al2023_reserved_memory() {
    let mut nc = node_class(AmiFamily::Al2023);
    nc.kubelet.max_pods = Some(110);
    let it = instance_type_named("ap-northeast-2", &[], &nc, "t3.small").unwrap();
    assert_eq!(it.capacity.pods(), 110);
    assert_eq!(it.allocatable.pods(), 110);
    assert_eq!(it.overhead.memory(), (11 * 11 + 255 + 100) * MIB);
    assert_eq!(it.allocatable.memory(), 1418 * MIB);

    let mut br = node_class(AmiFamily::Bottlerocket);
    let base = instance_type_named("ap-northeast-2", &[], &br, "t3.small").unwrap();
    assert_eq!(base.capacity.pods(), 11);
    assert_eq!(base.allocatable.memory(), 1418 * MIB);
    br.kubelet.max_pods = Some(110);
    let it = instance_type_named("ap-northeast-2", &[], &br, "t3.small").unwrap();
    assert_eq!(it.capacity.pods(), 110);
    assert_eq!(it.overhead.memory(), (11 * 110 + 255 + 100) * MIB);
    assert_eq!(it.allocatable.memory(), (1894 - 1565) * MIB);
}

#[test]
fn pods_per_core_is_ignored_by_bottlerocket() {
    let mut nc = node_class(AmiFamily::Al2023);
    nc.kubelet.pods_per_core = Some(2);
    let it = instance_type_named("us-east-1", &[], &nc, "m5.large").unwrap();
    assert_eq!(it.capacity.pods(), 4);
    // Reserved memory still uses the ENI limit (29) on AL2023.
    assert_eq!(it.overhead.memory(), (11 * 29 + 255 + 100) * MIB);
    nc.ami_family = AmiFamily::Bottlerocket;
    let it = instance_type_named("us-east-1", &[], &nc, "m5.large").unwrap();
    assert_eq!(it.capacity.pods(), 29);
}

#[test]
fn root_volume_sets_ephemeral_storage() {
    let mut nc = node_class(AmiFamily::Al2023);
    nc.root_volume_bytes = Some(50 * GIB);
    let it = instance_type_named("us-east-1", &[], &nc, "t3.small").unwrap();
    assert_eq!(it.capacity.get(ResourceName::EphemeralStorage), 50 * GIB);
    assert_eq!(it.allocatable.get(ResourceName::EphemeralStorage), 44 * GIB);
}

#[test]
fn windows_node_classes() {
    let nc = node_class(AmiFamily::Windows2022);
    let its = instance_types("us-east-1", &[], &nc).unwrap();
    assert_eq!(its.len(), 1363);
    let t3 = named(&its, "t3.small");
    assert_eq!(t3.labels[wellknown::OS], "windows");
    assert_eq!(t3.labels[wellknown::WINDOWS_BUILD], "10.0.20348");
    assert_eq!(t3.capacity.pods(), 110);
    assert_eq!(t3.capacity.get(ResourceName::EphemeralStorage), 50 * GIB);
    assert_eq!(t3.allocatable.get(ResourceName::EphemeralStorage), 44 * GIB);
    assert_eq!(t3.overhead.memory(), (11 * 110 + 255 + 100) * MIB);
    assert!(!t3.offerings.is_empty());
    // arm64 types keep their entry but cannot run Windows.
    let t4g = named(&its, "t4g.small");
    assert!(t4g.offerings.is_empty());
    assert!(!t4g.labels.contains_key(wellknown::OS));
    assert!(
        t4g.requirements
            .get(wellknown::OS)
            .unwrap()
            .values()
            .is_empty()
    );
    assert!(
        its.iter()
            .filter(|it| it.labels[wellknown::ARCH] == "arm64")
            .all(|it| it.offerings.is_empty())
    );

    let linux =
        instance_type_named("us-east-1", &[], &node_class(AmiFamily::Al2), "t4g.small").unwrap();
    assert_eq!(linux.labels[wellknown::OS], "linux");
    assert_eq!(
        linux
            .requirements
            .get(wellknown::WINDOWS_BUILD)
            .unwrap()
            .operator(),
        Operator::DoesNotExist
    );
}

#[test]
fn kubelet_reservations_and_eviction_overrides() {
    let mut nc = node_class(AmiFamily::Al2023);
    nc.kubelet.kube_reserved.insert("cpu".into(), 200);
    nc.kubelet
        .system_reserved
        .insert("memory".into(), 100 * MIB);
    nc.kubelet.system_reserved.insert("pid".into(), 1000); // not a resource: ignored
    nc.kubelet
        .eviction_hard
        .insert("memory.available".into(), "5%".into());
    nc.kubelet
        .eviction_hard
        .insert("nodefs.available".into(), "100%".into());
    let it = instance_type_named("us-east-1", &[], &nc, "m5.large").unwrap();
    let mem_cap = 7577 * MIB;
    assert_eq!(it.capacity.memory(), mem_cap);
    assert_eq!(it.overhead.cpu(), 200);
    let eviction = ceil_div(mem_cap * 5, 100);
    assert_eq!(it.overhead.memory(), 574 * MIB + 100 * MIB + eviction);
    assert_eq!(it.overhead.get(ResourceName::EphemeralStorage), GIB);
    assert_eq!(it.allocatable.get(ResourceName::EphemeralStorage), 19 * GIB);

    nc.kubelet
        .eviction_hard
        .insert("memory.available".into(), "500Mi".into());
    nc.kubelet
        .eviction_hard
        .insert("nodefs.available".into(), "1Gi".into());
    let it = instance_type_named("us-east-1", &[], &nc, "m5.large").unwrap();
    assert_eq!(it.overhead.memory(), (574 + 100 + 500) * MIB);
    assert_eq!(it.allocatable.get(ResourceName::EphemeralStorage), 18 * GIB);

    // Unparseable values keep the defaults.
    nc.kubelet
        .eviction_hard
        .insert("memory.available".into(), "lots".into());
    let it = instance_type_named("us-east-1", &[], &nc, "m5.large").unwrap();
    assert_eq!(it.overhead.memory(), (574 + 100 + 100) * MIB);
}

#[test]
fn kube_reserved_cpu_tiers() {
    for (vcpu, want) in [
        (1, 60),
        (2, 70),
        (4, 80),
        (8, 90),
        (16, 110),
        (48, 190),
        (96, 310),
        (192, 550),
    ] {
        assert_eq!(kube_reserved_cpu(vcpu * 1000), want, "{vcpu} vCPU");
    }
    assert_eq!(kube_reserved_cpu(0), 0);
    assert_eq!(kube_reserved_cpu(500), 30);
    assert_eq!(kube_reserved_cpu(1500), 65);
}

#[test]
fn labels_and_requirements() {
    let nc = node_class(AmiFamily::Al2023);
    let its = instance_types("us-east-1", &[], &nc).unwrap();

    let m5 = named(&its, "m5.large");
    let l = &m5.labels;
    assert_eq!(l[wellknown::INSTANCE_TYPE], "m5.large");
    assert_eq!(l[wellknown::ARCH], "amd64");
    assert_eq!(l[wellknown::OS], "linux");
    assert_eq!(l[wellknown::REGION], "us-east-1");
    assert_eq!(l[wellknown::INSTANCE_CATEGORY], "m");
    assert_eq!(l[wellknown::INSTANCE_FAMILY], "m5");
    assert_eq!(l[wellknown::INSTANCE_GENERATION], "5");
    assert_eq!(l[wellknown::INSTANCE_SIZE], "large");
    assert_eq!(l[wellknown::INSTANCE_CPU], "2");
    assert_eq!(l[wellknown::INSTANCE_MEMORY], "8192");
    assert_eq!(l[keys::HYPERVISOR], "nitro");
    assert_eq!(l[keys::CAPABILITY_FLEX], "false");
    assert!(l.contains_key(keys::NETWORK_BANDWIDTH));
    assert!(!l.contains_key(wellknown::ZONE) && !l.contains_key(wellknown::CAPACITY_TYPE));
    for key in [
        keys::GPU_COUNT,
        keys::GPU_NAME,
        keys::LOCAL_NVME,
        keys::ACCELERATOR_NAME,
    ] {
        assert_eq!(
            m5.requirements.get(key).unwrap().operator(),
            Operator::DoesNotExist,
            "{key}"
        );
    }
    for (k, v) in l {
        assert!(m5.requirements.get(k).unwrap().has(v), "{k}");
    }
    assert_eq!(
        m5.requirements
            .get(wellknown::CAPACITY_TYPE)
            .unwrap()
            .values(),
        ["on-demand", "spot"]
    );

    let g5 = named(&its, "g5.xlarge");
    assert_eq!(g5.labels[keys::GPU_NAME], "a10g");
    assert_eq!(g5.labels[keys::GPU_MANUFACTURER], "nvidia");
    assert_eq!(g5.labels[keys::GPU_COUNT], "1");
    assert_eq!(g5.labels[keys::GPU_MEMORY], "22888");
    assert_eq!(g5.labels[keys::LOCAL_NVME], "250");
    assert_eq!(g5.capacity.get(ResourceName::NvidiaGpu), 1);
    assert_eq!(g5.allocatable.get(ResourceName::NvidiaGpu), 1);

    let g4ad = named(&its, "g4ad.xlarge");
    assert_eq!(g4ad.labels[keys::GPU_MANUFACTURER], "amd");
    assert_eq!(g4ad.capacity.get(ResourceName::AmdGpu), 1);
    assert_eq!(g4ad.capacity.get(ResourceName::NvidiaGpu), 0);

    // Every GPU name in the data has a known manufacturer.
    assert!(
        entries()
            .iter()
            .filter(|e| e.has_gpu())
            .all(|e| e.gpu_manufacturer().is_some())
    );

    let metal = named(&its, "c5.metal");
    assert!(!metal.labels.contains_key(keys::HYPERVISOR));
    assert_eq!(
        metal.requirements.get(keys::HYPERVISOR).unwrap().operator(),
        Operator::DoesNotExist
    );

    // The processor maker comes from the family name; tenancy is the shared default.
    assert_eq!(
        named(&its, "m7i-flex.large").labels[keys::CPU_MANUFACTURER],
        "intel"
    );
    assert_eq!(
        named(&its, "m5a.large").labels[keys::CPU_MANUFACTURER],
        "amd"
    );
    assert_eq!(
        named(&its, "c6g.large").labels[keys::CPU_MANUFACTURER],
        "aws"
    );
    assert_eq!(named(&its, "t3.small").labels[keys::TENANCY], "default");
    // Every AWS well-known key is decided on every type: a value or DoesNotExist.
    for it in &its {
        for key in wellknown::WELL_KNOWN
            .iter()
            .filter(|k| k.starts_with("karpenter.k8s.aws/instance-"))
        {
            assert!(
                it.labels.contains_key(*key) || it.requirements.has_key(key),
                "{} leaves {key} open",
                it.name
            );
        }
    }

    let a1 = named(&its, "a1.large");
    assert_eq!(a1.labels[wellknown::ARCH], "arm64");
    assert_eq!(a1.labels[wellknown::INSTANCE_MEMORY], "4096");
}

/// A type's `instance-accelerator-{name,manufacturer,count}` labels.
fn accelerator(it: &InstanceType) -> [Option<&str>; 3] {
    [
        keys::ACCELERATOR_NAME,
        keys::ACCELERATOR_MANUFACTURER,
        keys::ACCELERATOR_COUNT,
    ]
    .map(|k| it.labels.get(k).map(String::as_str))
}

/// The accelerator labels and the Neuron capacity (`aws.amazon.com/neuron`, `.../neuroncore`),
/// as Karpenter's generated instance-types reference shows them.
#[test]
fn neuron_capacity_and_accelerator_labels() {
    let nc = node_class(AmiFamily::Al2023);
    let its = instance_types("us-east-1", &[], &nc).unwrap();
    let neuron = |r: &Resources| {
        (
            r.get(ResourceName::AwsNeuron),
            r.get(ResourceName::AwsNeuronCore),
        )
    };

    let inf2 = named(&its, "inf2.xlarge");
    assert_eq!(
        accelerator(inf2),
        [Some("inferentia2"), Some("aws"), Some("1")]
    );
    assert_eq!(neuron(&inf2.capacity), (1, 2));
    // Nothing is reserved from the devices: allocatable equals capacity, as for GPUs.
    assert_eq!(neuron(&inf2.allocatable), (1, 2));
    assert_eq!(neuron(&inf2.overhead), (0, 0));
    // The reference's other resources for inf2.xlarge still hold.
    assert_eq!(inf2.allocatable.cpu(), 3920);
    assert_eq!(inf2.allocatable.memory(), 14162 * MIB);
    for (key, value) in [
        (keys::ACCELERATOR_NAME, "inferentia2"),
        (keys::ACCELERATOR_MANUFACTURER, "aws"),
        (keys::ACCELERATOR_COUNT, "1"),
    ] {
        let r = inf2.requirements.get(key).unwrap();
        assert_eq!(
            (r.operator(), r.values()),
            (Operator::In, &[value.to_string()][..])
        );
    }
    // Numeric: a NodePool's `instance-accelerator-count Gt 0` admits it.
    let some_accelerator = Requirement::new(keys::ACCELERATOR_COUNT, Operator::Gt, ["0"]);
    let count_req = |it: &InstanceType| {
        it.requirements
            .get(keys::ACCELERATOR_COUNT)
            .unwrap()
            .clone()
    };
    assert!(count_req(inf2).intersects(&some_accelerator));

    let trn1 = named(&its, "trn1.32xlarge");
    assert_eq!(
        accelerator(trn1),
        [Some("trainium"), Some("aws"), Some("16")]
    );
    assert_eq!(neuron(&trn1.capacity), (16, 32));
    assert_eq!(neuron(&trn1.allocatable), (16, 32));
    assert_eq!(neuron(&named(&its, "trn2.48xlarge").capacity), (16, 128));
    assert_eq!(neuron(&named(&its, "inf1.24xlarge").capacity), (16, 64));

    // A type without accelerators: no capacity, and the three keys DoesNotExist.
    let m5 = named(&its, "m5.large");
    assert_eq!(accelerator(m5), [None, None, None]);
    assert_eq!(neuron(&m5.capacity), (0, 0));
    for key in [
        keys::ACCELERATOR_NAME,
        keys::ACCELERATOR_MANUFACTURER,
        keys::ACCELERATOR_COUNT,
    ] {
        assert_eq!(
            m5.requirements.get(key).unwrap().operator(),
            Operator::DoesNotExist,
            "{key}"
        );
    }
    assert!(!count_req(m5).intersects(&some_accelerator));
    // A GPU type is not an accelerator type.
    assert_eq!(accelerator(named(&its, "g5.xlarge")), [None, None, None]);

    // dl2q's Qualcomm AI 100 has the labels (InferenceAcceleratorInfo) but no resource.
    let dl2q = named(&its, "dl2q.24xlarge");
    assert_eq!(
        accelerator(dl2q),
        [Some("qualcomm-ai100"), Some("qualcomm"), Some("8")]
    );
    assert_eq!(neuron(&dl2q.capacity), (0, 0));

    // Every row of accelerators.csv, and nothing else, reaches the resolved types.
    let mut rows = ACCELERATORS.lines();
    assert_eq!(
        rows.next(),
        Some("name,accelerator_name,accelerator_manufacturer,accelerator_count,neuron,neuroncore")
    );
    let rows: Vec<Vec<&str>> = rows.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 13);
    for row in &rows {
        let it = named(&its, row[0]);
        assert_eq!(
            accelerator(it),
            [Some(row[1]), Some(row[2]), Some(row[3])],
            "{}",
            row[0]
        );
        let count = |c: &str| if c.is_empty() { 0 } else { c.parse().unwrap() };
        assert_eq!(
            neuron(&it.capacity),
            (count(row[4]), count(row[5])),
            "{}",
            row[0]
        );
    }
    let labelled: Vec<&str> = its
        .iter()
        .filter(|it| it.labels.contains_key(keys::ACCELERATOR_NAME))
        .map(|it| it.name.as_str())
        .collect();
    assert_eq!(labelled, rows.iter().map(|r| r[0]).collect::<Vec<_>>());
    let neuron_types: Vec<&str> = its
        .iter()
        .filter(|it| neuron(&it.capacity) != (0, 0))
        .map(|it| it.name.as_str())
        .collect();
    assert_eq!(neuron_types.len(), 12);
    assert!(
        neuron_types
            .iter()
            .all(|n| n.starts_with("inf") || n.starts_with("trn")),
        "{neuron_types:?}"
    );

    // The AMI family does not change the devices.
    let br = instance_type_named(
        "us-east-1",
        &[],
        &node_class(AmiFamily::Bottlerocket),
        "inf2.xlarge",
    )
    .unwrap();
    assert_eq!(neuron(&br.allocatable), (1, 2));
}

#[test]
fn extract_adds_no_prices() {
    // regional-prices-extract.csv is not used by build.rs because every on-demand price in it
    // is already in the main CSV; keep it that way.
    let mut checked = 0;
    for line in EXTRACT
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
    {
        let cells: Vec<&str> = line.split(',').collect();
        let e = lookup(cells[0]).unwrap_or_else(|| panic!("{} not in the catalog", cells[0]));
        let idx = region_index(cells[1]).unwrap();
        let (int, frac) = cells[2].split_once('.').unwrap_or((cells[2], ""));
        let mut micro = int.parse::<i64>().unwrap() * 1_000_000;
        micro += format!("{frac:0<6}").parse::<i64>().unwrap();
        assert_eq!(e.on_demand[idx], Some(micro), "{line}");
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
fn custom_instance_types() {
    let mut labels = StringMap::new();
    labels.insert("karpenter.k8s.aws/instance-category".into(), "c".into());
    let spec = InstanceTypeSpec {
        name: "small-instance-type".into(),
        capacity: Resources::ZERO
            .with(ResourceName::Cpu, 2000)
            .with(ResourceName::Memory, 8 * GIB)
            .with(ResourceName::Pods, 110),
        arch: "amd64".into(),
        os: "linux".into(),
        labels,
        overhead: None,
        offerings: vec![
            OfferingSpec {
                zone: "test-zone-1".into(),
                capacity_type: CapacityType::OnDemand,
                price: 200_000,
                available: true,
            },
            OfferingSpec {
                zone: "test-zone-1".into(),
                capacity_type: CapacityType::Spot,
                price: 140_000,
                available: true,
            },
            OfferingSpec {
                zone: "test-zone-2".into(),
                capacity_type: CapacityType::Spot,
                price: 130_000,
                available: false,
            },
            OfferingSpec {
                zone: "test-zone-3".into(),
                capacity_type: CapacityType::Spot,
                price: 120_000,
                available: true,
            },
        ],
    };
    let nc = node_class(AmiFamily::Al2023);
    let it = custom_instance_type(&spec, &[], &nc);
    // Capacity as declared, with the node class's default 20Gi root volume as ephemeral
    // storage (the declaration leaves it out), reserved as for a catalog type.
    assert_eq!(
        it.capacity,
        spec.capacity.with(ResourceName::EphemeralStorage, 20 * GIB)
    );
    assert_eq!(it.overhead.cpu(), 70);
    assert_eq!(it.overhead.memory(), (11 * 110 + 255 + 100) * MIB);
    assert_eq!(
        it.overhead.get(ResourceName::EphemeralStorage),
        GIB + 2 * GIB
    );
    assert_eq!(it.allocatable.memory(), 8 * GIB - (1465 + 100) * MIB);
    assert_eq!(it.allocatable.pods(), 110);
    assert_eq!(it.labels.len(), 4);
    assert_eq!(it.labels[wellknown::OS], "linux");
    assert_eq!(it.offerings.len(), 4);
    assert!(
        it.offerings
            .iter()
            .all(|o| o.price_source == PriceSource::Custom)
    );
    assert_eq!(zone_values(&it), ["test-zone-1", "test-zone-3"]);
    assert_eq!(
        it.requirements
            .get(wellknown::CAPACITY_TYPE)
            .unwrap()
            .values(),
        ["on-demand", "spot"]
    );
    assert!(
        it.requirements
            .get("karpenter.k8s.aws/instance-category")
            .unwrap()
            .has("c")
    );
    assert_eq!(it.cheapest_available().unwrap().price, 120_000);

    let it = custom_instance_type(&spec, &zones(&["test-zone-2", "test-zone-3"]), &nc);
    assert_eq!(offered_zones(&it), ["test-zone-2", "test-zone-3"]);
    assert_eq!(zone_values(&it), ["test-zone-3"]);
    assert_eq!(
        it.requirements
            .get(wellknown::CAPACITY_TYPE)
            .unwrap()
            .values(),
        ["spot"]
    );

    let mut given = spec.clone();
    given.overhead = Some(
        Resources::ZERO
            .with(ResourceName::Cpu, 100)
            .with(ResourceName::Memory, 100 * MIB),
    );
    given.capacity.set(ResourceName::EphemeralStorage, 20 * GIB);
    let it = custom_instance_type(&given, &[], &nc);
    assert_eq!(it.allocatable.cpu(), 1900);
    assert_eq!(it.allocatable.memory(), 8 * GIB - 100 * MIB);
    assert_eq!(it.allocatable.get(ResourceName::EphemeralStorage), 20 * GIB);

    // Default overhead with ephemeral capacity reserves 1Gi + 10 %.
    let mut eph = spec.clone();
    eph.capacity.set(ResourceName::EphemeralStorage, 20 * GIB);
    let it = custom_instance_type(&eph, &[], &nc);
    assert_eq!(it.allocatable.get(ResourceName::EphemeralStorage), 17 * GIB);

    // `resolve` with custom specs never touches the built-in catalog (even for an unknown region).
    let its = resolve("nowhere-1", &[], &nc, &[spec]).unwrap();
    assert_eq!(its.len(), 1);
}

#[test]
fn resolve_uses_builtin_catalog_without_custom_types() {
    let its = resolve("ap-northeast-2", &[], &node_class(AmiFamily::Al2023), &[]).unwrap();
    assert_eq!(its.len(), 1363);
}
