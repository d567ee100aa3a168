// The operator's facets, in the order they decide and their children are announced: the fences
// first (a refused egress entry stops everything), the workload last (its policy verdict reads
// what the others placed). A new tenant feature is one line here and a folder of its own.
import { databasesFacet } from '../databases/facet.js';
import { exposureFacet } from '../exposure/facet.js';
import { secretsFacet } from '../secrets/facet.js';
import { fencesFacet } from '../fences/facet.js';
import { workloadFacet } from '../workload/facet.js';
import type { Facet } from './contract.js';

export const FACETS: readonly Facet<unknown>[] = [
  fencesFacet,
  secretsFacet,
  databasesFacet,
  exposureFacet,
  workloadFacet,
];
