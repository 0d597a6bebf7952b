// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from "vitest";
import { RESET_STATE_KEY, saveResetState, takeResetState } from "./resetState";

describe("reset navigation state", () => {
  beforeEach(() => sessionStorage.clear());

  it("carries username and token once", () => {
    saveResetState({ username: "amy", token: "t0k" });
    expect(takeResetState()).toEqual({ username: "amy", token: "t0k" });
    expect(sessionStorage.getItem(RESET_STATE_KEY)).toBeNull();
    expect(takeResetState()).toBeNull();
  });

  it("ignores broken or partial state", () => {
    sessionStorage.setItem(RESET_STATE_KEY, "{not json");
    expect(takeResetState()).toBeNull();
    sessionStorage.setItem(RESET_STATE_KEY, JSON.stringify({ username: "amy" }));
    expect(takeResetState()).toBeNull();
    expect(sessionStorage.getItem(RESET_STATE_KEY)).toBeNull();
  });
});
