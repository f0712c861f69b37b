/**
 * Renderer test setup: React Testing Library cleans the DOM after each test. `findBy…` and `waitFor` wait
 * up to 10 s instead of 1 s: a guard against a hang, not a speed limit — on two busy cores (CI runs suites
 * side by side) an antd form can take more than a second to validate and render its messages.
 */
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
