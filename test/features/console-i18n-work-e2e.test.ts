import { englishIn, toPortuguese } from "../harness/console-i18n";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";
import { startTestServer, type TestServer } from "../harness/server";

// The console's work pages in Portuguese (Brazil) (issue 30): the login page switched before signing in, then the
// tasklist with its filters, a task with its form and case, the start catalog and a start form refused for a required
// field, the monitor, an instance and the notifications, each with no English label of the work area left in `main`.

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
type U = Awaited<ReturnType<typeof userInTenant>>;
let manager: U, colleague: U;
let taskId: string, instanceId: string;

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `../i18n-work-${name}.png`), fullPage: true });

/** The English labels of a page that must not be left in its `main` once the page speaks Portuguese. */
async function noEnglish(page: Page, english: string[]) {
  expect(englishIn(await page.locator("main").innerText(), english)).toEqual([]);
}

describeInBrowser("the console's work pages in Portuguese (Brazil)", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const tenant = await createTenant(s, "ferias", sa);
    const modeler = await userInTenant(s, tenant, "MODELER", sa);
    [manager, colleague] = await Promise.all([
      userInTenant(s, tenant, "MANAGER", sa),
      userInTenant(s, tenant, "USER", sa),
    ]);
    await deployBpmn(
      s,
      modeler.token,
      `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:di="http://www.omg.org/spec/DD/20100524/DI" targetNamespace="t">
  <process id="ferias" name="Pedido de férias" isExecutable="true">
    <startEvent id="s" camunda:formKey="pedido"/>
    <userTask id="aprovar" name="Aprovar as férias" camunda:assignee="${colleague.id}" camunda:formKey="aprovacao"/>
    <endEvent id="e"/>
    <sequenceFlow id="f0" sourceRef="s" targetRef="aprovar"/>
    <sequenceFlow id="f1" sourceRef="aprovar" targetRef="e"/>
  </process>
  <bpmndi:BPMNDiagram id="d"><bpmndi:BPMNPlane id="p" bpmnElement="ferias">
    <bpmndi:BPMNShape id="s_di" bpmnElement="s"><dc:Bounds x="100" y="100" width="36" height="36"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="a_di" bpmnElement="aprovar"><dc:Bounds x="200" y="78" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="e_di" bpmnElement="e"><dc:Bounds x="360" y="100" width="36" height="36"/></bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="f0_di" bpmnElement="f0"><di:waypoint x="136" y="118"/><di:waypoint x="200" y="118"/></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="300" y="118"/><di:waypoint x="360" y="118"/></bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`,
      "ferias.bpmn",
    );
    for (const f of [
      {
        key: "pedido",
        name: "Pedido",
        schema: {
          fields: [
            { key: "dias", type: "integer", label: "Dias", required: true },
            { key: "motivo", type: "text", label: "Motivo" },
          ],
        },
      },
      {
        key: "aprovacao",
        name: "Aprovação",
        schema: { fields: [{ key: "aprovado", type: "checkbox", label: "Aprovado" }] },
      },
    ])
      expect((await s.req("POST", "/api/a/definitions/ferias/forms", { token: modeler.token, json: f })).status).toBe(
        201,
      );
    const inst = await startProcess(s, colleague.token, {
      definitionKey: "ferias",
      businessKey: "FER-1",
      variables: { dias: 10, motivo: "Viagem" },
    });
    instanceId = inst.id;
    const [task] = (await (
      await s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: colleague.token })
    ).json()) as { id: string }[];
    taskId = task.id;
    // Delegated to the manager: the task is theirs and they are notified.
    const delegated = await s.req("POST", `/api/a/tasks/${taskId}/delegate`, {
      token: colleague.token,
      json: { userId: manager.id },
    });
    expect(delegated.status).toBe(200);
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("login, tasklist, task, start form, monitor, instance and notifications read in Portuguese", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${web.url}/`);
    // The login page: English first, the switch above the form turns it Portuguese before anyone signs in.
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await toPortuguese(page);
    await page.getByRole("heading", { name: "Entrar" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("pt-BR");
    await page.getByLabel("Senha").waitFor();
    await noEnglish(page, ["Sign in", "Password"]);
    await shot(page, "login");
    await page.getByLabel("E-mail").fill(manager.email);
    await page.getByLabel("Senha").fill(manager.password);
    await page.getByRole("button", { name: "Entrar" }).click();

    // The tasklist and its filters.
    await page.getByRole("heading", { name: "Tarefas" }).waitFor();
    await page.locator(".task-row", { hasText: "Aprovar as férias" }).waitFor();
    for (const label of ["Mostrar", "Processo", "Grupo", "Prazo", "Ordenar por", "Pesquisar", "Variável"])
      await page.locator(".filters label", { hasText: label }).first().waitFor();
    expect(await page.locator("main").innerText()).toContain("1 tarefa");
    expect(await page.locator("#flt option").allTextContents()).toEqual([
      "Todas que posso ver (1)",
      "Atribuídas a mim (1)",
      "Disponíveis para assumir (0)",
    ]);
    expect(await page.getByLabel("Pesquisar").getAttribute("placeholder")).toBe("Nome ou chave de negócio");
    await page.getByLabel("Salvar este filtro como").waitFor();
    await page.getByLabel("Ordenar por").selectOption("priority");
    await page.locator(".task-row", { hasText: "Aprovar as férias" }).waitFor();
    await noEnglish(page, [
      "Tasks",
      "Show",
      "Sort by",
      "All processes",
      "Save this filter as",
      "Save filter",
      "task",
      "Claim",
    ]);
    await shot(page, "tasklist");

    // A task: its form, the case, delegation, files and comments.
    await page.goto(`${web.url}/#/tasks/${taskId}`);
    await page.getByRole("heading", { name: "Aprovar as férias" }).waitFor();
    await page.getByRole("button", { name: "Concluir" }).waitFor();
    await page.getByRole("heading", { name: "O caso" }).waitFor();
    const request = page.locator("table.case-data", { hasText: "A solicitação (formulário inicial)" });
    expect(await request.locator("tr", { hasText: "Dias" }).locator("td").textContent()).toBe("10");
    for (const h of ["Delegar", "Arquivos", "Comentários", "Histórico"])
      await page.getByRole("heading", { name: h }).waitFor();
    await page.getByLabel("Adicionar um comentário").waitFor();
    const main = await page.locator("main").innerText();
    expect(main).toContain("Chave de negócio");
    expect(main).toContain("Ver a instância");
    await noEnglish(page, [
      "The case",
      "Business key",
      "Started",
      "Comments",
      "Add a comment",
      "Files",
      "Delegate to",
      "Complete",
      "View the instance",
      "assigned to",
      "Activities, oldest first",
      "Priority",
      "Due",
    ]);
    await shot(page, "task");

    // The start catalog and a start form refused for its required field.
    await page.goto(`${web.url}/#/processes`);
    await page.getByRole("heading", { name: "Iniciar um processo" }).waitFor();
    await page.getByRole("link", { name: /Pedido de férias/ }).click();
    await page.getByRole("heading", { name: "Pedido de férias" }).waitFor();
    await page.getByText("(opcional; gerada quando vazia)").waitFor();
    await page.getByRole("button", { name: "Iniciar" }).click();
    await page.locator(".alert", { hasText: "Preencha os campos obrigatórios: Dias." }).waitFor();
    await page.locator(".field.invalid .error", { hasText: "Este campo é obrigatório." }).waitFor();
    await noEnglish(page, ["Business key", "Start", "This field is required.", "Please fill in the required fields"]);
    await shot(page, "start-form");
    // A format problem is said in Portuguese too, before anything is sent.
    await page.getByLabel("Dias").fill("2.5");
    await page.getByRole("button", { name: "Iniciar" }).click();
    await page.locator(".field.invalid .error", { hasText: "deve ser um número inteiro" }).waitFor();

    // The monitor and one process's diagram with its parked instances.
    await page.goto(`${web.url}/#/monitor`);
    await page.getByRole("heading", { name: "Processos" }).waitFor();
    await page.getByText("Instâncias em execução").waitFor();
    await page.getByRole("heading", { name: "Jobs com falha" }).waitFor();
    await page.getByText("Nenhum job com falha.").waitFor();
    expect(await page.locator('[data-process="ferias"] .running').textContent()).toBe("1 em execução");
    await noEnglish(page, [
      "Running instances",
      "Open tasks",
      "Processes",
      "Failed jobs",
      "running",
      "No failed jobs.",
    ]);
    await shot(page, "monitor");
    await page.goto(`${web.url}/#/monitor/ferias`);
    await page.getByRole("button", { name: "Instâncias em Aprovar as férias" }).click();
    await page.locator(".drill tr[data-instance]").waitFor();
    expect(await page.locator(".drill .badge.USER_TASK").textContent()).toBe("Tarefa de usuário");
    await page.getByRole("heading", { name: "Instâncias" }).waitFor();
    expect(await page.locator("table.instances td.status").textContent()).toBe("Ativa");
    await noEnglish(page, [
      "Parked instances per step",
      "By reason",
      "Instances",
      "USER_TASK",
      "Business key starts with",
      "All versions",
      "Started from",
      "ACTIVE",
    ]);
    await shot(page, "monitor-process");

    // The instance.
    await page.goto(`${web.url}/#/instances/${instanceId}`);
    await page.getByRole("heading", { name: "Tarefas abertas" }).waitFor();
    expect(await page.locator(".facts .status").textContent()).toBe("Ativa");
    for (const h of ["Diagrama", "Variáveis", "Histórico", "Jobs"])
      await page.getByRole("heading", { name: h, exact: true }).waitFor();
    await page.getByRole("button", { name: "Cancelar a instância" }).waitFor();
    await page.getByRole("button", { name: "Adicionar uma variável" }).waitFor();
    await noEnglish(page, [
      "Open tasks",
      "State",
      "Diagram",
      "Variables",
      "History",
      "Cancel the instance",
      "ACTIVE",
      "Type",
      "Who",
    ]);
    await shot(page, "instance");

    // The notifications: the delegation is there, the page's own words in Portuguese.
    await page.goto(`${web.url}/#/notifications`);
    await page.getByRole("heading", { name: "Notificações" }).waitFor();
    await page.getByText("Só não lidas").waitFor();
    await page.getByRole("button", { name: "Marcar todas como lidas" }).waitFor();
    await page.locator(".notifications li.unread .status", { hasText: "não lida" }).first().waitFor();
    await page.locator(".notifications button", { hasText: "Marcar como lida" }).first().waitFor();
    await noEnglish(page, ["Unread only", "Mark all as read", "Mark as read"]);
    await shot(page, "notifications");
    expect(await page.locator("a.bell").getAttribute("aria-label")).toMatch(/^Notificações não lidas: \d+$/);

    // The failed AI steps (none yet) and the company choice.
    await page.goto(`${web.url}/#/ai-task-failures`);
    await page.getByRole("heading", { name: "Etapas de IA com falha" }).waitFor();
    await page.getByText("Nenhuma etapa de IA falhou.", { exact: false }).waitFor();
    await noEnglish(page, ["Failed AI steps", "Business key", "No AI step has failed"]);
    await shot(page, "ai-failures");
    await page.goto(`${web.url}/#/tenants`);
    await page.getByRole("heading", { name: "Escolha uma empresa" }).waitFor();
    await page.getByRole("button", { name: /Tenant ferias/ }).waitFor();
    await noEnglish(page, ["Choose a company", "You are not a member of any company yet."]);
    expect(problems).toEqual([]);
  }, 120_000);
});
