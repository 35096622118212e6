import { redirectUri, safeNextPath } from './sign-in';

describe('where a sign-in may send the browser', () => {
  it('keeps paths of the web application', () => {
    expect(safeNextPath('/app/projects/42?tab=models')).toBe('/app/projects/42?tab=models');
    expect(safeNextPath('/app')).toBe('/app');
  });

  it('refuses other origins, protocol-relative and script URLs, and paths outside the application', () => {
    for (const next of ['https://evil.example/app', '//evil.example/app', '/\\evil.example', 'javascript:alert(1)', '/api/auth/logout', '/app/../api', '', undefined]) {
      expect([next, safeNextPath(next)]).toEqual([next, '/app/projects']);
    }
  });

  it('names the callback by the provider kind’s path family', () => {
    expect(redirectUri('https://ml.example.com', { kind: 'oidc', slug: 'corp' })).toBe('https://ml.example.com/api/auth/sso/corp/callback');
    expect(redirectUri('https://ml.example.com', { kind: 'oauth2', slug: 'github' })).toBe('https://ml.example.com/api/auth/oauth/github/callback');
  });
});
