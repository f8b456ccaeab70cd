// quarto runtime
