//! The instance types a snapshot's nodes use, read from the project's EC2 catalog
//! (`core/data/instance-types.csv`): vCPUs, memory, max pods and Karpenter's allocatable.

const CSV: &str = include_str!("../../core/data/instance-types.csv");

#[derive(Clone, Debug)]
pub struct InstanceType {
    pub name: String,
    pub category: String,
    pub family: String,
    pub generation: String,
    pub size: String,
    pub arch: String,
    pub hypervisor: String,
    pub vcpu: i64,
    pub memory_mib: i64,
    pub max_pods: i64,
    pub alloc_cpu_m: i64,
    pub alloc_memory_mib: i64,
    pub ephemeral_gi: i64,
    pub network_mbps: i64,
    pub pod_eni: i64,
}

/// The named types, in the order asked (a name missing from the catalog is skipped).
pub fn lookup(names: &[&str]) -> Vec<InstanceType> {
    let mut lines = CSV.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or(usize::MAX);
    let (c_name, c_cat, c_fam, c_gen, c_size, c_arch, c_hyp) = (
        col("name"),
        col("category"),
        col("family"),
        col("generation"),
        col("size"),
        col("arch"),
        col("hypervisor"),
    );
    let (c_vcpu, c_mem, c_pods, c_acpu, c_amem, c_eph, c_net, c_eni) = (
        col("vcpu"),
        col("memory_mib"),
        col("max_pods"),
        col("alloc_cpu_m"),
        col("alloc_memory_mib"),
        col("ephemeral_storage_gi"),
        col("network_bandwidth_mbps"),
        col("pod_eni"),
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let get = |r: &Vec<&str>, c: usize| r.get(c).copied().unwrap_or("").to_string();
    let num = |r: &Vec<&str>, c: usize| r.get(c).and_then(|s| s.parse::<i64>().ok()).unwrap_or(0);
    names
        .iter()
        .filter_map(|n| rows.iter().find(|r| r.first() == Some(n)))
        .map(|r| InstanceType {
            name: get(r, c_name),
            category: get(r, c_cat),
            family: get(r, c_fam),
            generation: get(r, c_gen),
            size: get(r, c_size),
            arch: get(r, c_arch),
            hypervisor: get(r, c_hyp),
            vcpu: num(r, c_vcpu),
            memory_mib: num(r, c_mem),
            max_pods: num(r, c_pods),
            alloc_cpu_m: num(r, c_acpu),
            alloc_memory_mib: num(r, c_amem),
            ephemeral_gi: num(r, c_eph),
            network_mbps: num(r, c_net),
            pod_eni: num(r, c_eni),
        })
        .collect()
}
