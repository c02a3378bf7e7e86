//! The playground's terminal: kubectl and eks-node-viewer over the simulated cluster.
