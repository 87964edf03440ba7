"""Case builders, one module per format and area. Every module is imported by the generator;
each registers its cases with `conformance.corpus.generator.case` or `add_case`."""
