// Counts Content-Security-Policy violations on the strict-CSP demo page and says so.
const status = document.getElementById('csp-status');
let count = 0;
document.addEventListener('securitypolicyviolation', (event) => {
  count += 1;
  status.textContent = `Content-Security-Policy violations on this page: ${count} `
    + `(last: ${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}).`;
});
