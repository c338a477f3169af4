import { expect, test } from "bun:test";
import { makeCases, states, T } from "../../../test/fixtures/cmmn/harness";
import { workerCase } from "../../../test/harness/agents";

// An agent step's job awaits the model while its command computes; another command on the case meanwhile makes that
// command recompute (revision conflict). The model must not be asked again: its tool calls and its failure record
// would repeat, and a slow model under traffic would be asked up to nine times.
test("a case agent job asks the model once, even when its command is recomputed after a revision conflict", async () => {
  let calls = 0;
  let caseId = "";
  const h = makeCases({
    attachedAgent: () => undefined,
    runAgent: async () => {
      calls++;
      if (calls === 1) return { failure: "the model is down" }; // the inline run at the start: the step faults
      // The job's run: the case moves while the model answers (another command bumps its revision).
      await h.rt.setVariables(T, caseId, { touched: calls });
      return { outputs: { verdict: "ok" } };
    },
  });
  await h.rt.deploy(T, workerCase("claimAi", `pms:agent="caseworker"`), { fileName: "claim.cmmn", createdBy: null });
  caseId = (await h.rt.startCase(T, { definitionKey: "claimAi" })).id;
  expect(states(h.rt, caseId)["Worker step"]).toBe("FAILED");
  const step = h.rt.planItems(T, caseId, { isManager: true }).find((p) => p.name === "Worker step")!;
  await h.rt.reactivatePlanItem(T, caseId, step.id, { userId: "u1", channel: "REST" });
  await h.rt.runDueTimers();
  expect(calls).toBe(2);
  expect(states(h.rt, caseId)["Worker step"]).toBe("COMPLETED");
  expect(h.rt.getCase(T, caseId).variables).toMatchObject({ verdict: "ok", touched: 2 });
});
