/**
 * What placement answers: a host per placed task, and for every task not
 * placed a reason from a closed set with per-filter host counts ("why
 * pending"), the way Nomad keeps per-node filter metrics.
 */
import type { Constraint } from "../constraints/constraint.ts";
import type { Resources } from "../resources/resources.ts";
import type { RejectionCode } from "./filters/pipeline.ts";
import type { PlacementStrategy, PortRange } from "./input.ts";
import type { Scores } from "./scorers/strategy.ts";

/**
 * Why a host was rejected: the filter table's codes, in pipeline order
 * (`filters/pipeline.ts`). A host counts once, under the first filter that
 * rejected it, so the counts of an unplaced task add up to the number of hosts.
 */
export { REJECTION_CODES, type RejectionCode } from "./filters/pipeline.ts";

/** Hosts rejected per code; codes that rejected no host are absent. */
export type Rejections = Partial<Record<RejectionCode, number>>;

/**
 * NO_HOSTS: the snapshot is empty. NO_HOST_FITS: every host was rejected (the
 * rejections say by what). GANG_INCOMPLETE: the task's gang could not be
 * placed whole, so none of it was.
 */
export type UnplacedReason = "NO_HOSTS" | "NO_HOST_FITS" | "GANG_INCOMPLETE";

/** Each scorer on 0–100, and their weighted mean (the strategy's weights). */
export interface ScoreBreakdown extends Scores {
  readonly total: number;
}

export interface TaskPlacement {
  readonly taskId: string;
  readonly hostname: string;
  readonly agentId: string;
  /** The exact numbers: `static` in the order asked, `dynamic` the lowest free ones. */
  readonly ports: { readonly static: readonly number[]; readonly dynamic: readonly number[] };
  readonly strategy: PlacementStrategy;
  readonly score: ScoreBreakdown;
  /** Hosts the filters looked at before enough feasible ones were found. */
  readonly hostsEvaluated: number;
  /** Feasible hosts scored (the chosen one among them). */
  readonly hostsScored: number;
}

/** What the task asked for, kept with the reason so the words need nothing else. */
export interface PlacementAsk {
  readonly resources: Resources;
  readonly dynamicPorts: number;
  readonly staticPorts: readonly number[];
  readonly constraint?: Constraint;
  readonly volumeHost?: string;
}

export interface GangShortfall {
  readonly gangId: string;
  readonly size: number;
  /** Members that found a host while the gang was tried. */
  readonly fitting: number;
  /** Whether this member itself found one. */
  readonly memberFit: boolean;
}

export interface UnplacedTask {
  readonly taskId: string;
  readonly reason: UnplacedReason;
  /** For a task that found no host: every host, counted under its first rejection. */
  readonly rejections: Rejections;
  readonly hostsEvaluated: number;
  readonly ask: PlacementAsk;
  readonly gang?: GangShortfall;
  /**
   * Whether a change of what is allocated (tasks ending, preemption) could
   * place it (Kubernetes' Unschedulable against UnschedulableAndUnresolvable).
   * false: every host rejects it for what the host is — its state, attributes,
   * GPUs, the volume's host, a total below the ask — or there are no hosts;
   * for a gang member, some member of its gang is so.
   */
  readonly resolvable: boolean;
}

export type PlacementInputError =
  | { readonly code: "DUPLICATE_HOSTNAME"; readonly hostname: string }
  | { readonly code: "DUPLICATE_TASK_ID"; readonly taskId: string }
  | {
      readonly code: "INVALID_AMOUNT";
      readonly subject: "host" | "task";
      readonly id: string;
      readonly field: string;
      readonly value: number;
    }
  | {
      readonly code: "INVALID_PORT_REQUEST";
      readonly taskId: string;
      readonly field: string;
      readonly value: number;
    }
  | { readonly code: "INVALID_PORT_RANGE"; readonly hostname: string; readonly range: PortRange }
  | {
      readonly code: "INVALID_OPTION";
      readonly field: "hostsToScore" | "startOffset";
      readonly value: number;
    };

export type PlacementResult =
  | {
      readonly ok: true;
      /** In task order. */
      readonly placements: readonly TaskPlacement[];
      /** In task order. */
      readonly unplaced: readonly UnplacedTask[];
      /** Where the next batch's scan should start (`PlacementOptions.startOffset`). */
      readonly nextOffset: number;
    }
  | { readonly ok: false; readonly errors: readonly PlacementInputError[] };
